import { PDFName } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import {
  jpegBomb,
  makeJpeg,
  makeLargePng,
  makePng,
  palettePng,
  pngBomb,
  scanBomb,
} from '../../../test/helpers/images.js';
import { multipart, type Part } from '../../../test/helpers/multipart.js';
import { copiedObjectsPdf, editedPagePdf, makePdf } from '../../../test/helpers/pdf.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { call, createWorld, type Member, type World } from '../../../test/helpers/world.js';
import { createDossier, storePdfWithoutWeight } from '../../../test/helpers/fixtures.js';
import { limits } from '../../limits.js';
import type { AttachmentCreated, AttachmentList } from './schemas.js';
import { selectAttachmentFiles } from './store.js';
import { inspectPdf } from '../../pdf/pdf-inspection.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describeBackends('dossier attachments', (backend) => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(() => world.close());

  const newDossier = (member: Member) => createDossier(world, member);
  const base = (dossierId: string) => `/api/v1/dossiers/${dossierId}/attachments`;
  const send = (member: Member, dossierId: string, parts: Part[]) =>
    call(world.app, {
      method: 'POST',
      url: base(dossierId),
      token: member.token,
      ...multipart(parts),
    });
  const fileParts = (
    data: Buffer,
    type = 'floorplan',
    filename = 'plan.bin',
    title?: string | Buffer,
  ) => [
    { name: 'file', filename, contentType: 'application/octet-stream', data },
    { name: 'type', data: type },
    ...(title === undefined ? [] : [{ name: 'title', data: title }]),
  ];
  const list = async (member: Member, dossierId: string) => {
    const res = await call(world.app, { method: 'GET', url: base(dossierId), token: member.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AttachmentList>().items;
  };
  const fileRows = async () =>
    Number(
      (
        await world.stores.accounts.db
          .selectFrom('attachment_files')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('upload, list, download, delete', () => {
    it('recognises PNG, JPEG and PDF by content and gives back the same bytes', async () => {
      const dossier = await newDossier(world.memberA);
      const png = makePng(64, 48);
      const jpg = makeJpeg(40, 30);
      const pdf = await makePdf(2);
      // The names and declared types say nothing: all three arrive as .bin octet streams.
      const results = [];
      for (const [bytes, type, title] of [
        [png, 'floorplan', 'Ground floor'],
        [jpg, 'marketing', undefined],
        [pdf, 'permit', undefined],
      ] as const) {
        const res = await send(
          world.memberA,
          dossier,
          fileParts(bytes, type, 'C:\\x\\scan.bin', title),
        );
        expect(res.statusCode, res.body).toBe(201);
        const created = res.json<AttachmentCreated>();
        expect(res.headers.location).toBe(created.url);
        results.push(created);
      }
      expect(results.map((r) => [r.contentType, r.type, r.title, r.size])).toEqual([
        ['image/png', 'floorplan', 'Ground floor', png.length],
        ['image/jpeg', 'marketing', 'scan.bin', jpg.length],
        ['application/pdf', 'permit', 'scan.bin', pdf.length],
      ]);
      const items = await list(world.adminA, dossier);
      expect(items.map((i) => [i.id, i.width, i.height, i.pages])).toEqual([
        [results[0]?.id, 64, 48, null],
        [results[1]?.id, 40, 30, null],
        [results[2]?.id, null, null, 2],
      ]);
      for (const [i, bytes] of [png, jpg, pdf].entries()) {
        const res = await call(world.app, {
          method: 'GET',
          url: results[i]?.url ?? '',
          token: world.adminA.token,
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe(results[i]?.contentType);
        expect(res.rawPayload.equals(bytes)).toBe(true);
      }
      const gone = results[1]?.url ?? '';
      const del = await call(world.app, {
        method: 'DELETE',
        url: gone,
        token: world.memberA.token,
      });
      expect(del.statusCode).toBe(204);
      expectProblem(
        await call(world.app, { method: 'GET', url: gone, token: world.memberA.token }),
        404,
        'not_found',
      );
      expect((await list(world.memberA, dossier)).length).toBe(2);
    });

    it('keeps the print version reports show of a PNG that cannot be embedded as it is', async () => {
      const dossier = await newDossier(world.memberA);
      const wide = makePng(limits.attachments.printSide * 2, 4); // RGBA, twice the print side
      const plain = PNG.sync.write(PNG.sync.read(makePng(16, 8)), { colorType: 2 });
      const photo = makeJpeg(16, 8);
      for (const data of [wide, plain, photo]) {
        expect((await send(world.memberA, dossier, fileParts(data))).statusCode).toBe(201);
      }
      const rows = await world.stores.accounts.db
        .selectFrom('attachments')
        .innerJoin('attachment_files', 'attachment_files.attachment_id', 'attachments.id')
        .select(['attachments.size', 'attachment_files.print_content'])
        .where('attachments.dossier_id', '=', dossier)
        .orderBy('attachments.created_at')
        .orderBy('attachments.size')
        .execute();
      const bySize = new Map(rows.map((r) => [r.size, r.print_content]));
      const print = bySize.get(wide.length);
      if (!print) throw new Error('no print version of the RGBA PNG');
      const printed = PNG.sync.read(Buffer.from(print));
      expect([printed.width, printed.height]).toEqual([limits.attachments.printSide, 2]);
      expect(Buffer.from(print)[25]).toBe(2); // opaque RGB
      expect(bySize.get(plain.length)).toBeNull();
      expect(bySize.get(photo.length)).toBeNull();
      // Reports read the print version, downloads the file as it was sent.
      const files = await selectAttachmentFiles(world.stores.accounts.db, world.memberA, dossier);
      const contents = files.map((f) => Buffer.from(f.content));
      expect(contents.some((c) => c.equals(Buffer.from(print)))).toBe(true);
      expect(contents.some((c) => c.equals(plain))).toBe(true);
      expect(contents.some((c) => c.equals(wide))).toBe(false);
      const [first] = (await list(world.memberA, dossier)).filter((i) => i.size === wide.length);
      const download = await call(world.app, {
        method: 'GET',
        url: first?.url ?? '',
        token: world.memberA.token,
      });
      expect(download.rawPayload.equals(wide)).toBe(true);
    });

    it('deletes the attachments, bytes included, with their dossier', async () => {
      const dossier = await newDossier(world.memberA);
      const before = await fileRows();
      expect((await send(world.memberA, dossier, fileParts(makePng()))).statusCode).toBe(201);
      expect(await fileRows()).toBe(before + 1);
      const res = await call(world.app, {
        method: 'DELETE',
        url: `/api/v1/dossiers/${dossier}`,
        token: world.memberA.token,
      });
      expect(res.statusCode).toBe(204);
      expect(await fileRows()).toBe(before);
      expectProblem(
        await call(world.app, { method: 'GET', url: base(dossier), token: world.memberA.token }),
        404,
        'not_found',
      );
    });
  });

  describe('refusals store nothing', () => {
    let dossier: string;
    beforeAll(async () => {
      dossier = await newDossier(world.adminA);
    });
    const refused = async (parts: Part[], path: string, message: RegExp) => {
      const before = await fileRows();
      const problem = expectProblem(
        await send(world.adminA, dossier, parts),
        400,
        'validation_failed',
      );
      expect(problem.errors?.[0]?.path).toBe(path);
      // A value can break two rules (an empty title is short and blank): one names it so.
      const messages = (problem.errors ?? []).filter((e) => e.path === path).map((e) => e.message);
      expect(
        messages.some((m) => message.test(m)),
        messages.join('; '),
      ).toBe(true);
      expect(await fileRows()).toBe(before);
    };

    it('refuses what is not a whole PNG, JPEG or PDF', async () => {
      await refused(
        fileParts(Buffer.from('just text')),
        '/file',
        /neither a PNG, a JPEG nor a PDF/,
      );
      await refused(fileParts(Buffer.alloc(0)), '/file', /is empty/);
      const png = makePng();
      const broken = Buffer.from(png);
      broken[broken.length - 20] = (broken[broken.length - 20] as number) ^ 0xff;
      await refused(fileParts(broken), '/file', /not a readable PNG/);
      await refused(
        fileParts(png.subarray(0, png.length - 30)),
        '/file',
        /not a readable PNG \(truncated: the file ends before the image does\)/,
      );
      await refused(fileParts(makeJpeg().subarray(0, 200)), '/file', /not a readable JPEG/);
      const pdf = await makePdf(1);
      await refused(fileParts(pdf.subarray(0, pdf.length - 10)), '/file', /truncated/);
    });

    it('refuses a PDF with a page a report cannot use, naming the page', async () => {
      const zero = await editedPagePdf((page, document) =>
        page.set(PDFName.of('MediaBox'), document.context.obj([0, 0, 0, 0])),
      );
      await refused(fileParts(zero), '/file', /^page 3 has a \/MediaBox of zero area$/);
    });

    it('refuses decompression bombs from their headers, before decoding', async () => {
      // 100,000 × 100,000 RGBA would be 40 GB decoded; the file is a few hundred bytes.
      const png = pngBomb(100_000, 100_000);
      expect(png.length).toBeLessThan(1000);
      await refused(fileParts(png), '/file', /100000×100000 pixels; at most 40000000 pixels/);
      await refused(fileParts(jpegBomb(65_000, 65_000)), '/file', /65000×65000 pixels/);
      // Within the side limit but beyond the pixel count.
      await refused(fileParts(pngBomb(10_000, 4_001)), '/file', /at most 40000000 pixels/);
      // 16 bits per channel: a quarter of the pixels (the decoder takes four times as long).
      await refused(
        fileParts(pngBomb(4_000, 2_501, 16)),
        '/file',
        /16-bit image of 4000×2501 pixels; 16-bit images may have at most 10000000 pixels/,
      );
      // Within it, the file is decoded (and this one found not whole).
      await refused(fileParts(pngBomb(4_000, 2_500, 16)), '/file', /not a readable PNG/);
      // A progressive JPEG of many tiny scans, each a pass over every block: counted first.
      const scans = scanBomb(4_000, limits.attachments.jpegScans);
      expect(scans.length).toBeLessThan(50_000);
      await refused(
        fileParts(scans),
        '/file',
        new RegExp(
          `JPEG of ${limits.attachments.jpegScans + 1} scans; at most ${limits.attachments.jpegScans}`,
        ),
      );
    });

    it('refuses a wrong type or title, and fields the form does not have', async () => {
      const png = makePng();
      // Checked against the form's documented schema, in a JSON body's words.
      await refused(
        fileParts(png, 'photo'),
        '/type',
        /^must be one of "floorplan", "permit", "marketing", "valuation", "other"$/,
      );
      await refused([{ name: 'file', filename: 'a.png', data: png }], '/type', /is required/);
      await refused(fileParts(png, 'other', 'a.png', ' '), '/title', /blank/);
      await refused(
        fileParts(png, 'other', 'a.png', 'x'.repeat(201)),
        '/title',
        /^must NOT have more than 200 characters$/,
      );
      // Counted once trimmed, in characters (not UTF-16 units).
      const longest = ` ${'😀'.repeat(200)}  `;
      const kept = await send(world.adminA, dossier, fileParts(png, 'other', 'a.png', longest));
      expect(kept.statusCode, kept.body).toBe(201);
      expect(kept.json<AttachmentCreated>().title).toBe('😀'.repeat(200));
      await refused(fileParts(png, 'other', 'a.png', 'evil\u202Etxt.exe'), '/title', /one line/);
      // Bytes that are not UTF-8 are refused, not stored as replacement characters.
      const latin1 = Buffer.from([0x50, 0x6c, 0x61, 0x6e, 0xc3, 0x28, 0xff]);
      await refused(fileParts(png, 'other', 'a.png', latin1), '/title', /UTF-8/);
      // A part in UTF-16 can hold half a character or U+0000: refused, as in a JSON body (the
      // stores would keep them differently).
      for (const [text, why] of [
        ['a\uD83Db', /lone UTF-16 surrogate/],
        ['a\u0000b', /U\+0000/],
      ] as const) {
        await refused(
          [
            { name: 'file', filename: 'a.png', data: png },
            { name: 'type', data: 'other' },
            {
              name: 'title',
              contentType: 'text/plain; charset=utf-16le',
              data: Buffer.from(text, 'utf16le'),
            },
          ],
          '/title',
          why,
        );
      }
      // Such a file name is kept without them.
      const named = await send(world.adminA, dossier, [
        {
          name: 'file',
          disposition: `form-data; name="file"; filename*=utf-16le''${[...Buffer.from('P\uD83Dn.png', 'utf16le')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}`,
          data: png,
        },
        { name: 'type', data: 'other' },
      ]);
      expect(named.statusCode, named.body).toBe(201);
      expect(named.json<AttachmentCreated>().title).toBe('Pn.png');
      await refused([...fileParts(png), { name: 'extra', data: '1' }], '/extra', /not allowed/);
      await refused(
        [
          { name: 'type', filename: 't.txt', data: 'other' },
          { name: 'file', filename: 'a', data: png },
        ],
        '/type',
        /must be a text field/,
      );
      await refused([{ name: 'type', data: 'other' }], '/file', /is required/);
    });

    it('answers 415 to a body that is not multipart', async () => {
      const res = await call(world.app, {
        method: 'POST',
        url: base(dossier),
        token: world.adminA.token,
        payload: { type: 'other' },
      });
      expectProblem(res, 415, 'unsupported_media_type');
    });
  });

  it(`refuses attachment ${limits.attachments.perDossier + 1} of a dossier with 409`, async () => {
    const dossier = await newDossier(world.memberA);
    const png = makePng(8, 8);
    // All but the last two one after the other, then five at once: the cap holds under
    // concurrency (fewer at once than an organization may have waiting for the inspection
    // worker, which refuses the excess with 429).
    const results = [];
    for (let i = 0; i < limits.attachments.perDossier - 2; i++) {
      results.push(await send(world.memberA, dossier, fileParts(png)));
    }
    results.push(
      ...(await Promise.all(
        Array.from({ length: 5 }, () => send(world.memberA, dossier, fileParts(png))),
      )),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201).length).toBe(limits.attachments.perDossier);
    expect(codes.filter((c) => c === 409).length).toBe(3);
    expect((await list(world.memberA, dossier)).length).toBe(limits.attachments.perDossier);
  });

  it(`refuses an attachment beyond ${String(limits.attachments.bytesPerDossier / 2 ** 20)} MiB of a dossier's attachments with 409`, async () => {
    const dossier = await newDossier(world.memberA);
    // Three files of about 23 MB each: two fit in 64 MiB, the third does not.
    const big = makeLargePng(2400, 2400);
    expect(big.length).toBeGreaterThan(limits.attachments.bytesPerDossier / 3);
    expect(big.length).toBeLessThan(limits.attachments.fileBytes);
    for (let i = 0; i < 2; i++) {
      const res = await send(world.memberA, dossier, fileParts(big));
      expect(res.statusCode, res.body).toBe(201);
    }
    const refused = await send(world.memberA, dossier, fileParts(big));
    expectProblem(refused, 409, 'conflict');
    expect(refused.json<{ detail: string }>().detail).toMatch(/at most 64 MiB/);
    expect((await list(world.memberA, dossier)).length).toBe(2);
    // A small file still fits.
    expect((await send(world.memberA, dossier, fileParts(makePng()))).statusCode).toBe(201);
  });

  it(`refuses a PDF beyond a copy weight of ${String(limits.attachments.copyWeightPerDossier)} for a dossier's PDFs with 409, weighing PDFs stored before`, async () => {
    const max = limits.attachments.copyWeightPerDossier;
    // Three such files fit, a fourth does not.
    const heavy = await copiedObjectsPdf(Math.floor(max / 3.5));
    const { copyWeight } = await inspectPdf(heavy);
    expect(3 * copyWeight).toBeLessThanOrEqual(max);
    expect(4 * copyWeight).toBeGreaterThan(max);
    const dossier = await newDossier(world.memberA);
    for (let i = 0; i < 3; i++) {
      const res = await send(world.memberA, dossier, fileParts(heavy, 'permit'));
      expect(res.statusCode, res.body).toBe(201);
    }
    const refused = await send(world.memberA, dossier, fileParts(heavy, 'permit'));
    expectProblem(refused, 409, 'conflict');
    expect(refused.json<{ detail: string }>().detail).toBe(
      `This dossier's PDF attachments would have a copy weight of ${String(4 * copyWeight)} ` +
        `with this file (the objects a report copies from them, one more for every 1000 ` +
        `values); at most ${String(max)} is allowed; delete one first`,
    );
    expect((await list(world.memberA, dossier)).length).toBe(3);
    // Images weigh nothing, and a light PDF still fits.
    expect((await send(world.memberA, dossier, fileParts(makePng()))).statusCode).toBe(201);
    const light = await makePdf(2);
    expect(3 * copyWeight + (await inspectPdf(light)).copyWeight).toBeLessThanOrEqual(max);
    expect((await send(world.memberA, dossier, fileParts(light, 'permit'))).statusCode).toBe(201);

    // A PDF stored before weights were kept is weighed by the next PDF upload to its dossier.
    const storedBefore = (dossierId: string, pdf: Buffer) =>
      storePdfWithoutWeight(world, dossierId, pdf);
    const older = await newDossier(world.memberA);
    const id = await storedBefore(older, heavy);
    const weightOf = async (attachment: string) =>
      (
        await world.stores.accounts.db
          .selectFrom('attachments')
          .select('copy_weight')
          .where('id', '=', attachment)
          .executeTakeFirstOrThrow()
      ).copy_weight;
    // An image does not weigh it.
    expect((await send(world.memberA, older, fileParts(makePng()))).statusCode).toBe(201);
    expect(await weightOf(id)).toBeNull();
    for (let i = 0; i < 2; i++) {
      const res = await send(world.memberA, older, fileParts(heavy, 'permit'));
      expect(res.statusCode, res.body).toBe(201);
      expect(await weightOf(id)).toBe(copyWeight);
      expect(await weightOf(res.json<AttachmentCreated>().id)).toBe(copyWeight);
    }
    expectProblem(await send(world.memberA, older, fileParts(heavy, 'permit')), 409, 'conflict');

    // Four such PDFs stored before put a dossier over the cap once weighed: a PDF is refused,
    // an image is still taken (it adds no weight).
    const over = await newDossier(world.memberA);
    const olds = [];
    for (let i = 0; i < 4; i++) olds.push(await storedBefore(over, heavy));
    expectProblem(await send(world.memberA, over, fileParts(light, 'permit')), 409, 'conflict');
    for (const old of olds) expect(await weightOf(old)).toBe(copyWeight);
    const photo = await send(world.memberA, over, fileParts(makePng()));
    expect(photo.statusCode, photo.body).toBe(201);

    // One the checks refuse today (more pages than allowed) weighs nothing, and is kept so:
    // the next upload does not check it again.
    const third = await newDossier(world.memberA);
    const refusedToday = await storedBefore(third, await makePdf(limits.attachments.pages + 1));
    expect((await send(world.memberA, third, fileParts(light, 'permit'))).statusCode).toBe(201);
    expect(await weightOf(refusedToday)).toBe(0);
  });

  it('counts an image as large as its print version where that is larger', async () => {
    const dossier = await newDossier(world.memberA);
    const side = limits.attachments.printSide;
    // 256 colours at random, interlaced: a file of about 5.8 MB whose print version (RGB, made
    // from the pixels) is about 17.3 MB. Three count about 52 MB, a fourth would be over 64 MiB.
    const palette = Array.from({ length: 256 }, (_, i): [number, number, number] => [
      i,
      255 - i,
      (i * 7) % 256,
    ]);
    const image = palettePng({ width: side, height: side, bitDepth: 8, palette, interlaced: true });
    for (let i = 0; i < 3; i++) {
      const res = await send(world.memberA, dossier, fileParts(image));
      expect(res.statusCode, res.body).toBe(201);
    }
    const refused = await send(world.memberA, dossier, fileParts(image));
    expectProblem(refused, 409, 'conflict');
    expect(4 * image.length).toBeLessThan(limits.attachments.bytesPerDossier / 2);
    const files = await selectAttachmentFiles(world.stores.accounts.db, world.memberA, dossier);
    expect(files).toHaveLength(3);
    const held = files.reduce((sum, f) => sum + f.content.length, 0);
    expect(held).toBeGreaterThan(3 * 3 * image.length * 0.9);
    expect(held + held / 3).toBeGreaterThan(limits.attachments.bytesPerDossier);

    // A transparent palette image keeps its palette: its print version is as small as it is.
    const other = await newDossier(world.memberA);
    const floorPlan = palettePng({
      width: side,
      height: side,
      bitDepth: 2,
      palette: [
        [0, 0, 0],
        [90, 90, 90],
        [200, 30, 30],
        [255, 255, 255],
      ],
      alphas: [255, 255, 255, 0],
    });
    expect((await send(world.memberA, other, fileParts(floorPlan))).statusCode).toBe(201);
    const [kept] = await selectAttachmentFiles(world.stores.accounts.db, world.memberA, other);
    expect(kept?.printed).toBe(true);
    expect(kept?.content.length).toBeLessThanOrEqual(floorPlan.length);
  });

  it('leaves out of a report an attachment deleted while its report reads the files', async () => {
    // A report reads the dossier's attachments, then the bytes of those without a print version:
    // one deleted in between (its bytes gone with it) is left out, as if the report had started
    // a moment later, rather than passed on as an empty file.
    const dossier = await newDossier(world.memberA);
    for (const pages of [1, 2]) {
      const res = await send(world.memberA, dossier, fileParts(Buffer.from(await makePdf(pages))));
      expect(res.statusCode, res.body).toBe(201);
    }
    const [gone, kept] = await list(world.memberA, dossier);
    if (!gone || !kept) throw new Error('two attachments expected');
    await world.stores.accounts.db
      .deleteFrom('attachment_chunks')
      .where('attachment_id', '=', gone.id)
      .execute();
    const files = await selectAttachmentFiles(world.stores.accounts.db, world.memberA, dossier);
    expect(files.map((f) => f.row.id)).toEqual([kept.id]);
    expect(files[0]?.content.length).toBe(kept.size);
  });

  it('shows another organization the 404 of a missing dossier or attachment', async () => {
    const dossier = await newDossier(world.memberA);
    const created = (
      await send(world.memberA, dossier, fileParts(makePng()))
    ).json<AttachmentCreated>();
    const stranger = world.adminB;
    const answers = await Promise.all([
      call(world.app, { method: 'GET', url: base(dossier), token: stranger.token }),
      call(world.app, { method: 'GET', url: created.url, token: stranger.token }),
      call(world.app, { method: 'DELETE', url: created.url, token: stranger.token }),
      send(stranger, dossier, fileParts(makePng())),
      call(world.app, { method: 'GET', url: base(MISSING), token: world.memberA.token }),
      call(world.app, {
        method: 'GET',
        url: `${base(dossier)}/${MISSING}`,
        token: world.memberA.token,
      }),
    ]);
    for (const res of answers) expectProblem(res, 404, 'not_found');
    expect((await list(world.memberA, dossier)).map((i) => i.id)).toEqual([created.id]);
  });
});
