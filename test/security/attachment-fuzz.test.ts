import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends } from '../helpers/backends.js';
import { accountState, expectRefusal, FUZZ_SEED } from '../helpers/fuzz.js';
import { jpegBomb, makeJpeg, makePng, pngBomb } from '../helpers/images.js';
import { multipart, type Part } from '../helpers/multipart.js';
import { makePdf } from '../helpers/pdf.js';
import { call, createWorld, type World } from '../helpers/world.js';
import { createDossier } from '../helpers/fixtures.js';

/*
 * Generated forms for the attachment upload: any mix of parts named `file`, `type`, `title` and
 * others, with or without file names, carrying good images and PDFs, decompression bombs, text,
 * truncated and empty files, valid and invalid types and titles. An oracle says whether the form
 * is acceptable; the answer must agree (201, or a 4xx problem+json), never a 5xx, and a refused
 * form stores nothing.
 */

const RUNS = 150;

interface FileDraw {
  label: string;
  good: boolean;
  data: Buffer;
}

interface PartDraw {
  name: string;
  withFileName: boolean;
  /** For `file`: which bytes; for the text fields: the text. */
  file: number;
  text: string;
}

describeBackends('fuzzing the attachment upload', (backend) => {
  let world: World;
  let dossier: string;
  let files: FileDraw[];
  beforeAll(async () => {
    world = await createWorld(backend);
    dossier = await createDossier(world);
    const png = makePng(20, 10);
    const pdf = await makePdf(1, 'Fuzz');
    files = [
      { label: 'png', good: true, data: png },
      { label: 'jpeg', good: true, data: makeJpeg(12, 9) },
      { label: 'pdf', good: true, data: pdf },
      { label: 'png bomb', good: false, data: pngBomb(60_000, 60_000) },
      { label: 'jpeg bomb', good: false, data: jpegBomb(30_000, 30_000) },
      { label: 'text', good: false, data: Buffer.from('%PNG not really') },
      { label: 'empty', good: false, data: Buffer.alloc(0) },
      { label: 'cut png', good: false, data: png.subarray(0, png.length - 20) },
      { label: 'cut pdf', good: false, data: pdf.subarray(0, pdf.length - 8) },
    ];
  });
  afterAll(() => world.close());

  const part = fc.record({
    name: fc.constantFrom('file', 'type', 'title', 'File', 'other', '__proto__'),
    withFileName: fc.boolean(),
    file: fc.nat({ max: 8 }),
    text: fc.constantFrom(
      'floorplan',
      'permit',
      'other',
      'photo',
      '',
      ' ',
      'Plan 1',
      'a\u202Eb',
      'x'.repeat(201),
    ),
  });

  /** Forms shaped like a real upload (file, type, maybe a title, in any order), whose bytes and
   * texts are drawn: these reach acceptance as well as refusal. */
  const nearlyValid = fc
    .tuple(part, part, fc.option(part), fc.boolean())
    .map(([file, type, title, reversed]) => {
      const parts: PartDraw[] = [
        { ...file, name: 'file', withFileName: true },
        { ...type, name: 'type', withFileName: false },
        ...(title ? [{ ...title, name: 'title', withFileName: false }] : []),
      ];
      return reversed ? parts.reverse() : parts;
    });

  /** Whether the service must accept the form. */
  function acceptable(parts: PartDraw[]): boolean {
    const named = (name: string) => parts.filter((p) => p.name === name);
    const known = new Set(['file', 'type', 'title']);
    if (parts.some((p) => !known.has(p.name))) return false;
    const [file, ...moreFiles] = named('file');
    const [type, ...moreTypes] = named('type');
    const titles = named('title');
    if (!file || moreFiles.length > 0 || !file.withFileName || !files[file.file]?.good)
      return false;
    if (!type || moreTypes.length > 0 || type.withFileName) return false;
    if (!['floorplan', 'permit', 'other'].includes(type.text)) return false;
    if (titles.length > 1) return false;
    const title = titles[0];
    if (
      title &&
      (title.withFileName ||
        !['floorplan', 'permit', 'other', 'photo', 'Plan 1'].includes(title.text))
    ) {
      return false;
    }
    return true;
  }

  const form = (parts: PartDraw[]): Part[] =>
    parts.map((p) => ({
      name: p.name,
      ...(p.withFileName ? { filename: 'f.bin' } : {}),
      data: p.name === 'file' ? (files[p.file]?.data ?? Buffer.alloc(0)) : p.text,
    }));

  it(
    `agrees with the rules on ${String(RUNS)} generated forms, never 5xx, stores nothing refused`,
    { timeout: 180_000 },
    async () => {
      const before = await accountState(world.stores.accounts.db);
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.array(part, { minLength: 0, maxLength: 4 }), nearlyValid),
          async (parts) => {
            const res = await call(world.app, {
              method: 'POST',
              url: `/api/v1/dossiers/${dossier}/attachments`,
              token: world.memberA.token,
              ...multipart(form(parts)),
            });
            const where = JSON.stringify(
              parts.map((p) => [
                p.name,
                p.withFileName,
                p.name === 'file' ? files[p.file]?.label : p.text.slice(0, 12),
              ]),
            );
            if (acceptable(parts)) {
              expect(res.statusCode, `${where} → ${res.body}`).toBe(201);
              accepted += 1;
              const { url } = res.json<{ url: string }>();
              const gone = await call(world.app, {
                method: 'DELETE',
                url,
                token: world.memberA.token,
              });
              expect(gone.statusCode).toBe(204);
            } else {
              expectRefusal(res, where);
            }
          },
        ),
        { numRuns: RUNS, seed: FUZZ_SEED },
      );
      // The generator reached both sides of the rules.
      expect(accepted).toBeGreaterThan(0);
      expect(await accountState(world.stores.accounts.db)).toBe(before);
    },
  );
});
