import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { PDFDocument, PDFName, PDFNumber } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import {
  coverForm,
  multipart,
  type MultipartBody,
  type Part,
} from '../../../test/helpers/multipart.js';
import {
  damagedPdfs,
  editedPagePdf,
  encryptedPdf,
  makePdf,
  objectStreamPdf,
  pdfOfSize,
} from '../../../test/helpers/pdf.js';
import { expectProblem, expectRawProblem, rawHeaders } from '../../../test/helpers/problem.js';
import { chunked, RawConnection } from '../../../test/helpers/raw-http.js';
import {
  call,
  createWorld,
  worldForSuite,
  type Member,
  type World,
} from '../../../test/helpers/world.js';
import { addMember } from '../../../test/helpers/fixtures.js';
import type { Problem } from '../../http/problem.js';
import { limits } from '../../limits.js';
import type { CoverCreated, CoverItem, CoverScope } from './schemas.js';

type Side = 'front' | 'back';
const base = (scope: CoverScope, side: Side) => `/api/v1/user-settings/covers/${scope}/${side}`;
const MISSING = '00000000-0000-4000-8000-000000000000';
/** The one answer to an upload beyond its limits, whichever limit it passed and however framed. */
const TOO_LARGE =
  'The upload exceeds its limit: the cover may have 26214400 bytes (25 MiB), ' +
  'the whole request body 26279936 bytes';

/** `bytes` as a stream in 1 MiB chunks: sent without a declared length (chunked). */
const inChunks = (bytes: Buffer) =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / 2 ** 20) }, (_, i) =>
      bytes.subarray(i * 2 ** 20, (i + 1) * 2 ** 20),
    ),
  );

describeBackends('covers', (backend) => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(() => world.close());

  const send = (member: Member, scope: CoverScope, side: Side, body: MultipartBody) =>
    call(world.app, { method: 'POST', url: base(scope, side), token: member.token, ...body });
  /** `send` of a body that may also be a stream. */
  const post = (
    member: Member,
    scope: CoverScope,
    side: Side,
    body: { payload: Buffer | Readable; headers: Record<string, string> },
  ) => call(world.app, { method: 'POST', url: base(scope, side), token: member.token, ...body });
  const upload = (member: Member, scope: CoverScope, side: Side, pdf: Buffer, name = 'c.pdf') =>
    send(member, scope, side, coverForm(pdf, name));
  const uploaded = async (member: Member, scope: CoverScope, side: Side, label: string) => {
    const res = await upload(member, scope, side, await makePdf(1, label), `${label}.pdf`);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<CoverCreated>().uuid;
  };
  const list = async (member: Member, scope: CoverScope, side: Side) => {
    const res = await call(world.app, {
      method: 'GET',
      url: base(scope, side),
      token: member.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ items: CoverItem[] }>().items;
  };
  const uuids = async (member: Member, scope: CoverScope, side: Side) =>
    (await list(member, scope, side)).map((c) => c.uuid);
  const download = (member: Member, uuid: string) =>
    call(world.app, {
      method: 'GET',
      url: `/api/v1/user-settings/covers/file/${uuid}`,
      token: member.token,
    });
  const reorder = (member: Member, scope: CoverScope, side: Side, items: string[]) =>
    call(world.app, {
      method: 'PUT',
      url: base(scope, side),
      token: member.token,
      payload: { items: items.map((uuid) => ({ uuid })) },
    });
  const storedFiles = async () => {
    const row = await world.stores.accounts.db
      .selectFrom('cover_chunks')
      .select((eb) => eb.fn.count<string | number>('cover_id').distinct().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  /** The port of the app, listening from the first call on. */
  const listening = async () => {
    if (!world.app.server.listening) await world.app.listen({ port: 0, host: '127.0.0.1' });
    return (world.app.server.address() as AddressInfo).port;
  };
  /** Sends `body` as memberB's user front cover and checks the refusal stored nothing. */
  const refused = async (body: MultipartBody, status: number, code: Problem['code']) => {
    const before = await storedFiles();
    const res = await send(world.memberB, 'user', 'front', body);
    const problem = expectProblem(res, status, code);
    expect(await storedFiles()).toBe(before);
    expect(await list(world.memberB, 'user', 'front')).toEqual([]);
    return problem;
  };

  describe('upload, list and download', () => {
    it('gives back the same bytes, with the facts of the PDF', async () => {
      const pdf = await makePdf(2, 'Round trip');
      const res = await upload(world.memberA, 'user', 'front', pdf, 'Titelblatt Müller.pdf');
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json<CoverCreated>();
      expect(created).toEqual({
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
        title: 'Titelblatt Müller.pdf',
        url: `/api/v1/user-settings/covers/file/${created.uuid}`,
      });
      expect(res.headers.location).toBe(created.url);

      const items = await list(world.memberA, 'user', 'front');
      expect(items).toEqual([
        {
          ...created,
          pages: 2,
          size: pdf.length,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
        },
      ]);

      const file = await call(world.app, {
        method: 'GET',
        url: created.url,
        token: world.memberA.token,
      });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('application/pdf');
      expect(file.headers['content-length']).toBe(String(pdf.length));
      expect(file.headers['content-disposition']).toBe(
        `attachment; filename="Titelblatt Muller.pdf"; filename*=UTF-8''Titelblatt%20M%C3%BCller.pdf`,
      );
      expect(Buffer.compare(file.rawPayload, pdf)).toBe(0);
      const reread = await PDFDocument.load(file.rawPayload);
      expect(reread.getPageCount()).toBe(2);
    });

    it('keeps the upload order, apart per owner and side', async () => {
      const first = await uploaded(world.adminA, 'organization', 'front', 'first');
      const second = await uploaded(world.adminA, 'organization', 'front', 'second');
      const back = await uploaded(world.adminA, 'organization', 'back', 'back');
      expect(await uuids(world.memberA, 'organization', 'front')).toEqual([first, second]);
      expect(await uuids(world.memberA, 'organization', 'back')).toEqual([back]);
      expect(await uuids(world.adminA, 'user', 'front')).toEqual([]);
      const titles = (await list(world.adminA, 'organization', 'front')).map((c) => c.title);
      expect(titles).toEqual(['first.pdf', 'second.pdf']);
      await reorder(world.adminA, 'organization', 'front', []);
      await reorder(world.adminA, 'organization', 'back', []);
    });

    it('keeps only the file name as the title', async () => {
      const res = await upload(
        world.adminB,
        'user',
        'back',
        await makePdf(),
        'C:\\Users\\x\\a.pdf',
      );
      expect(res.json<CoverCreated>().title).toBe('a.pdf');
      await reorder(world.adminB, 'user', 'back', []);
    });

    it('accepts a PDF of exactly the size limit and 10 pages, whatever its declared type', async () => {
      const big = await pdfOfSize(limits.covers.fileBytes);
      const res = await send(
        world.adminB,
        'user',
        'front',
        multipart([{ name: 'cover', filename: 'big.bin', contentType: 'image/png', data: big }]),
      );
      expect(res.statusCode, res.body).toBe(201);
      const file = await download(world.adminB, res.json<CoverCreated>().uuid);
      expect(Buffer.compare(file.rawPayload, big)).toBe(0);

      const ten = await upload(world.adminB, 'user', 'front', await makePdf(10));
      expect(ten.statusCode, ten.body).toBe(201);
      const items = await list(world.adminB, 'user', 'front');
      expect(items.map((c) => [c.pages, c.size])).toEqual([
        [1, limits.covers.fileBytes],
        [10, expect.any(Number) as number],
      ]);
      expect(await reorder(world.adminB, 'user', 'front', [])).toMatchObject({ statusCode: 204 });
    });
  });

  describe('refusals store nothing', () => {
    it('refuses a file that is not a PDF, even named and typed as one', async () => {
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
      const problem = await refused(coverForm(png, 'cover.pdf'), 400, 'validation_failed');
      expect(problem.errors).toEqual([
        { path: '/cover', message: 'is not a PDF (no %PDF- header)' },
      ]);
    });

    it('refuses an empty file', async () => {
      await refused(coverForm(Buffer.alloc(0)), 400, 'validation_failed');
    });

    it('refuses a truncated PDF', async () => {
      const pdf = await makePdf(3);
      for (const cut of [pdf.length - 8, Math.floor(pdf.length / 2)]) {
        const problem = await refused(coverForm(pdf.subarray(0, cut)), 400, 'validation_failed');
        expect(problem.detail).toMatch(/truncated/);
      }
    });

    it('refuses a damaged PDF', async () => {
      for (const [damage, pdf] of Object.entries(await damagedPdfs())) {
        const problem = await refused(coverForm(pdf), 400, 'validation_failed');
        expect(problem.detail, damage).toMatch(
          /^cover (is not a readable PDF|has no readable page tree)/,
        );
      }
    });

    it('refuses an encrypted PDF', async () => {
      const problem = await refused(coverForm(await encryptedPdf()), 400, 'validation_failed');
      expect(problem.detail).toBe('cover is encrypted');
    });

    it('refuses a page a report cannot use, naming it', async () => {
      const pdf = await editedPagePdf((page) => page.set(PDFName.of('Contents'), PDFNumber.of(5)));
      const problem = await refused(coverForm(pdf), 400, 'validation_failed');
      expect(problem.detail).toBe(
        'cover page 3 has a /Contents that is neither a stream nor an array of streams',
      );
      expect(problem.errors).toEqual([
        {
          path: '/cover',
          message: 'page 3 has a /Contents that is neither a stream nor an array of streams',
        },
      ]);
    });

    it('refuses more than 10 pages', async () => {
      const problem = await refused(coverForm(await makePdf(11)), 400, 'validation_failed');
      expect(problem.detail).toBe('cover has more than 10 pages; at most 10 are allowed');
    });

    it('refuses object streams that expand beyond the limit', async () => {
      const bomb = await objectStreamPdf(limits.covers.pdfExpandedStreamBytes + 1);
      expect(bomb.length).toBeLessThan(100_000);
      const problem = await refused(coverForm(bomb), 400, 'validation_failed');
      expect(problem.detail).toMatch(/expands its compressed object streams beyond/);
    });

    it('refuses a file one byte over the size limit with 413', async () => {
      const big = await pdfOfSize(limits.covers.fileBytes + 1);
      const problem = await refused(coverForm(big), 413, 'payload_too_large');
      expect(problem.detail).toBe(TOO_LARGE);
    });

    it('refuses a declared length far beyond the limit before reading the body', async () => {
      const body = coverForm(Buffer.alloc(limits.covers.requestBytes + 1, 0x25));
      await refused(body, 413, 'payload_too_large');
    });

    it('counts the body as it arrives: one byte beyond the limit, declared or chunked, is the same 413', async () => {
      const form = coverForm(await makePdf());
      // A valid cover, with room in the form that the form parser skips (RFC 2046 preamble and
      // epilogue), making the body one byte longer than the limit.
      const padding = (length: number) => Buffer.alloc(length, 'x');
      const over = limits.covers.requestBytes + 1 - form.payload.length;
      const bodies = {
        preamble: Buffer.concat([padding(over - 2), Buffer.from('\r\n'), form.payload]),
        epilogue: Buffer.concat([form.payload, padding(over)]),
      };
      const before = await storedFiles();
      const answers: unknown[] = [];
      for (const [where, payload] of Object.entries(bodies)) {
        expect(payload.length).toBe(limits.covers.requestBytes + 1);
        for (const framing of ['declared', 'chunked'] as const) {
          const body = framing === 'declared' ? payload : inChunks(payload);
          const res = await post(world.memberB, 'user', 'front', { ...form, payload: body });
          const problem = expectProblem(res, 413, 'payload_too_large');
          expect(res.headers.connection, `${where} ${framing}`).toBe('close');
          answers.push({ ...problem, requestId: 'each its own' });
        }
      }
      expect(answers).toEqual(answers.map(() => answers[0]));
      expect(answers[0]).toMatchObject({ detail: TOO_LARGE });
      expect(await storedFiles()).toBe(before);
      expect(await list(world.memberB, 'user', 'front')).toEqual([]);
    });

    it('counts the body as it arrives on a real connection, chunked', async () => {
      const form = coverForm(await makePdf());
      const port = await listening();
      /** The upload as raw HTTP/1.1 with a chunked body. */
      const request = (payload: Buffer) =>
        Buffer.concat([
          Buffer.from(
            `POST ${base('user', 'front')} HTTP/1.1\r\nHost: propdata\r\n` +
              `Authorization: Bearer ${world.memberB.token}\r\n` +
              `Content-Type: ${form.headers['content-type'] ?? ''}\r\n` +
              'Transfer-Encoding: chunked\r\n\r\n',
          ),
          chunked(payload),
        ]);
      const over = limits.covers.requestBytes + 1 - form.payload.length;
      const before = await storedFiles();
      for (const payload of [
        Buffer.concat([Buffer.alloc(over - 2, 'x'), Buffer.from('\r\n'), form.payload]),
        Buffer.concat([form.payload, Buffer.alloc(over, 'x')]),
      ]) {
        const connection = await RawConnection.open(port);
        connection.write(request(payload));
        const answer = await connection.response();
        expect(expectRawProblem(answer, 413, 'payload_too_large').detail).toBe(TOO_LARGE);
        expect(rawHeaders(answer).connection).toBe('close');
        await connection.closed;
      }
      expect(await storedFiles()).toBe(before);

      // Within the limit, the epilogue is read to its end: the connection serves the next request.
      const connection = await RawConnection.open(port);
      connection.write(request(Buffer.concat([form.payload, Buffer.alloc(1000, 'x')])));
      const created = await connection.response();
      expect(created.head).toMatch(/^HTTP\/1\.1 201 /);
      connection.write('GET /health HTTP/1.1\r\nHost: propdata\r\n\r\n');
      expect((await connection.response(created.end)).head).toMatch(/^HTTP\/1\.1 200 /);
      connection.destroy();
      await reorder(world.memberB, 'user', 'front', []);
    });

    it('takes a body of exactly the limit, declared or chunked', async () => {
      const form = coverForm(await makePdf());
      const payload = Buffer.concat([
        Buffer.alloc(limits.covers.requestBytes - form.payload.length - 2, 'x'),
        Buffer.from('\r\n'),
        form.payload,
      ]);
      for (const body of [payload, inChunks(payload)]) {
        const res = await post(world.memberB, 'user', 'back', { ...form, payload: body });
        expect(res.statusCode, res.body).toBe(201);
      }
      expect(await list(world.memberB, 'user', 'back')).toHaveLength(2);
      await reorder(world.memberB, 'user', 'back', []);
    });

    it('refuses anything but multipart/form-data with 415', async () => {
      const before = await storedFiles();
      const json = await call(world.app, {
        method: 'POST',
        url: base('user', 'front'),
        token: world.memberB.token,
        payload: { cover: 'JVBERi0=' },
      });
      expect(expectProblem(json, 415, 'unsupported_media_type').detail).toMatch(/multipart/);
      const pdf = await makePdf();
      for (const type of ['application/pdf', 'text/plain', 'multipart/mixed; boundary=x']) {
        const res = await call(world.app, {
          method: 'POST',
          url: base('user', 'front'),
          token: world.memberB.token,
          payload: pdf,
          headers: { 'content-type': type },
        });
        expectProblem(res, 415, 'unsupported_media_type');
      }
      expect(await storedFiles()).toBe(before);
      expect(await list(world.memberB, 'user', 'front')).toEqual([]);
    });

    it('refuses a form without the cover field, or with another part', async () => {
      const pdf = await makePdf();
      const empty = await refused(multipart([]), 400, 'validation_failed');
      expect(empty.errors).toEqual([{ path: '/cover', message: 'is required' }]);

      const renamed = multipart([{ name: 'file', filename: 'a.pdf', data: pdf }]);
      expect((await refused(renamed, 400, 'validation_failed')).errors?.[0]?.path).toBe('/file');

      const text = multipart([{ name: 'cover', data: 'not a file' }]);
      expect((await refused(text, 400, 'validation_failed')).errors).toEqual([
        { path: '/cover', message: 'must be a file (a part with a filename)' },
      ]);

      // Parsers take an application/octet-stream part for a file, even without a file name.
      const nameless = multipart([
        { name: 'cover', contentType: 'application/octet-stream', data: pdf },
      ]);
      expect((await refused(nameless, 400, 'validation_failed')).errors).toEqual([
        { path: '/cover', message: 'must be a file (a part with a filename)' },
      ]);

      const extra = multipart([
        { name: 'cover', filename: 'a.pdf', data: pdf },
        { name: 'title', data: 'mine' },
      ]);
      expect((await refused(extra, 400, 'validation_failed')).errors?.[0]?.path).toBe('/title');

      const twice = multipart([
        { name: 'cover', filename: 'a.pdf', data: pdf },
        { name: 'cover', filename: 'b.pdf', data: pdf },
      ]);
      expect((await refused(twice, 400, 'validation_failed')).detail).toBe(
        'cover must be sent once',
      );

      const many = multipart([
        { name: 'cover', filename: 'a.pdf', data: pdf },
        { name: 'cover', filename: 'b.pdf', data: pdf },
        { name: 'cover', filename: 'c.pdf', data: pdf },
      ]);
      await refused(many, 400, 'validation_failed');
    });

    it('refuses a part that is not a form field, before or after the cover', async () => {
      const pdf = await makePdf();
      const cover: Part = {
        name: 'cover',
        filename: 'a.pdf',
        contentType: 'application/pdf',
        data: pdf,
      };
      // Form parsers skip these parts without a word; each of them makes the form not one cover.
      const notFields: Record<string, Part> = {
        'no Content-Disposition': { name: 'x', disposition: null, data: 'x' },
        // More than the parser buffers for a part (16 KB), arriving with the boundary after it:
        // the parser had waited for ever for the skipped part to be read.
        'no Content-Disposition, 20 kB': { name: 'x', disposition: null, data: 'x'.repeat(20_000) },
        'attachment disposition': { name: 'x', disposition: 'attachment; name="note"', data: 'x' },
        'line break in the name': { name: 'x', disposition: 'form-data; name="a\nb"', data: 'x' },
        // Dropped by the parser as a guard against header injection.
        'line break in the file name': {
          name: 'cover',
          disposition: 'form-data; name="cover"; filename*=UTF-8\'\'a%0D%0Ab.pdf',
          data: pdf,
        },
      };
      for (const [what, part] of Object.entries(notFields)) {
        // Alone too: the form then holds no cover, but a part it cannot read.
        for (const parts of [[part, cover], [cover, part], [part]]) {
          const problem = await refused(multipart(parts), 400, 'validation_failed');
          expect(problem.detail, what).toBe(
            'The form has a part that is not a form field (Content-Disposition: form-data ' +
              'with a name, and a file name without line breaks); send only "cover"',
          );
          expect(problem.errors, what).toEqual([
            {
              path: '',
              message: expect.stringMatching(/^the form has a part that is not/) as string,
            },
          ]);
        }
      }
    });

    it('names an unwanted part briefly, and a nameless one as such', async () => {
      const pdf = await makePdf();
      const long = multipart([{ name: `${'n'.repeat(10_000)}/~`, filename: 'a.pdf', data: pdf }]);
      const shortened = await refused(long, 400, 'validation_failed');
      const quoted = `${'n'.repeat(100)}…`;
      expect(shortened.detail).toBe(`${quoted} is not allowed; send only "cover"`);
      expect(shortened.errors).toEqual([
        { path: `/${quoted}`, message: 'is not allowed; send only "cover"' },
      ]);

      const slash = multipart([{ name: 'a/b~c', data: 'x' }]);
      expect((await refused(slash, 400, 'validation_failed')).errors).toEqual([
        { path: '/a~1b~0c', message: 'is not allowed; send only "cover"' },
      ]);

      for (const disposition of ['form-data; filename="a.pdf"', 'form-data; name=""']) {
        const nameless = multipart([{ name: '', disposition, data: pdf }]);
        expect((await refused(nameless, 400, 'validation_failed')).detail).toBe(
          'A part without a name is not allowed; send only "cover"',
        );
      }

      const prototype = multipart([
        { name: 'constructor', data: 'x' },
        { name: 'cover', filename: 'a.pdf', data: pdf },
      ]);
      expect(await refused(prototype, 400, 'validation_failed')).toMatchObject({
        detail: 'The form has a forbidden field name',
        errors: [{ path: '', message: 'the form has a forbidden field name' }],
      });
    });

    it('closes the connection after refusing an upload it stopped reading', async () => {
      const pdf = await makePdf();
      const extra = multipart([
        { name: 'title', data: 'first' },
        { name: 'cover', filename: 'a.pdf', data: pdf },
      ]);
      const early = await send(world.memberB, 'user', 'front', extra);
      expectProblem(early, 400, 'validation_failed');
      expect(early.headers.connection).toBe('close');
      const json = await call(world.app, {
        method: 'POST',
        url: base('user', 'front'),
        token: world.memberB.token,
        payload: { cover: 'x' },
      });
      expect(json.headers.connection).toBe('close');
      expect(await list(world.memberB, 'user', 'front')).toEqual([]);
    });

    it('refuses a malformed multipart body', async () => {
      const cut = coverForm(await makePdf());
      await refused({ ...cut, payload: cut.payload.subarray(0, 200) }, 400, 'bad_request');
      const noBoundary = {
        payload: cut.payload,
        headers: { 'content-type': 'multipart/form-data' },
      };
      await refused(noBoundary, 400, 'bad_request');
    });

    it('refuses the 11th cover of an owner and side with 409, and takes one again after a delete', async () => {
      const side = 'back';
      const ids: string[] = [];
      for (let i = 0; i < limits.covers.perOwnerAndSide; i++) {
        ids.push(await uploaded(world.memberB, 'user', side, `n${i}`));
      }
      const before = await storedFiles();
      const res = await upload(world.memberB, 'user', side, await makePdf());
      expect(expectProblem(res, 409, 'conflict').detail).toMatch(/already 10 back covers/);
      expect(await storedFiles()).toBe(before);
      // Refused before its body is read: the answer comes while the body has not been sent.
      const connection = await RawConnection.open(await listening());
      connection.write(
        `POST ${base('user', side)} HTTP/1.1\r\nHost: propdata\r\n` +
          `Authorization: Bearer ${world.memberB.token}\r\n` +
          'Content-Type: multipart/form-data; boundary=x\r\n' +
          `Content-Length: ${String(limits.covers.requestBytes)}\r\n\r\n--x\r\n`,
      );
      const early = await connection.response();
      expect(early.head).toMatch(/^HTTP\/1\.1 409 /);
      connection.destroy();
      expect(await uuids(world.memberB, 'user', side)).toEqual(ids);
      // Other sides and owners have their own count.
      const other = await uploaded(world.memberB, 'user', 'front', 'other side');

      expect((await reorder(world.memberB, 'user', side, ids.slice(1))).statusCode).toBe(204);
      const again = await uploaded(world.memberB, 'user', side, 'again');
      expect(await uuids(world.memberB, 'user', side)).toEqual([...ids.slice(1), again]);
      await reorder(world.memberB, 'user', side, []);
      await reorder(world.memberB, 'user', 'front', []);
      expect(await download(world.memberB, other)).toMatchObject({ statusCode: 404 });
    });

    it('never goes past the cap under concurrent uploads', async () => {
      const pdf = await makePdf();
      const results = await Promise.all(
        Array.from({ length: limits.covers.perOwnerAndSide + 3 }, (_, i) =>
          upload(world.adminB, 'organization', 'back', pdf, `p${i}.pdf`),
        ),
      );
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(limits.covers.perOwnerAndSide);
      expect(statuses.filter((s) => s === 409)).toHaveLength(3);
      const positions = await world.stores.accounts.db
        .selectFrom('covers')
        .select('position')
        .where('organization_id', '=', world.adminB.organizationId)
        .where('user_id', 'is', null)
        .where('side', '=', 'back')
        .orderBy('position')
        .execute();
      expect(positions.map((p) => p.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect((await reorder(world.adminB, 'organization', 'back', [])).statusCode).toBe(204);
    });
  });

  describe('reorder and delete (PUT)', () => {
    it('makes the listed order the order and deletes the unlisted covers with their files', async () => {
      const [a, b, c] = [
        await uploaded(world.adminA, 'organization', 'back', 'a'),
        await uploaded(world.adminA, 'organization', 'back', 'b'),
        await uploaded(world.adminA, 'organization', 'back', 'c'),
      ] as [string, string, string];
      const others = (await uuids(world.adminA, 'organization', 'back')).filter(
        (id) => ![a, b, c].includes(id),
      );
      const res = await reorder(world.adminA, 'organization', 'back', [...others, c, a, b]);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['content-type']).toBeUndefined();
      expect(await uuids(world.memberA, 'organization', 'back')).toEqual([...others, c, a, b]);

      const files = await storedFiles();
      expect(
        (await reorder(world.adminA, 'organization', 'back', [...others, b, c])).statusCode,
      ).toBe(204);
      expect(await uuids(world.memberA, 'organization', 'back')).toEqual([...others, b, c]);
      expect(await storedFiles()).toBe(files - 1);
      expectProblem(await download(world.adminA, a), 404, 'not_found');

      expect((await reorder(world.adminA, 'organization', 'back', [])).statusCode).toBe(204);
      expect(await list(world.memberA, 'organization', 'back')).toEqual([]);
      expect(await storedFiles()).toBe(files - 3 - others.length);
    });

    it('refuses unknown, repeated, other-side, other-owner and other-organization uuids and changes nothing', async () => {
      const mine = [
        await uploaded(world.memberA, 'user', 'back', 'x'),
        await uploaded(world.memberA, 'user', 'back', 'y'),
        await uploaded(world.memberA, 'user', 'back', 'z'),
      ];
      const [x, y, z] = mine as [string, string, string];
      const otherSide = await uploaded(world.memberA, 'user', 'front', 'front one');
      const otherOwner = await uploaded(world.adminA, 'user', 'back', 'admin own');
      const orgCover = await uploaded(world.adminA, 'organization', 'front', 'org');
      const otherOrg = await uploaded(world.adminB, 'organization', 'back', 'org b');
      const files = await storedFiles();

      const cases: [string, string[], string][] = [
        ['unknown', [z, MISSING], 'is not a cover of this owner and side'],
        ['repeated', [z, y, z], 'is listed more than once'],
        ['other side', [z, otherSide], 'is not a cover of this owner and side'],
        ['other owner', [z, otherOwner], 'is not a cover of this owner and side'],
        ['organization cover', [z, orgCover], 'is not a cover of this owner and side'],
        ['other organization', [z, otherOrg], 'is not a cover of this owner and side'],
      ];
      const answers: Problem[] = [];
      for (const [name, items, message] of cases) {
        const res = await reorder(world.memberA, 'user', 'back', items);
        const problem = expectProblem(res, 400, 'validation_failed');
        expect(problem.errors, name).toEqual([
          { path: `/items/${items.length - 1}/uuid`, message },
        ]);
        expect(await uuids(world.memberA, 'user', 'back'), name).toEqual(mine);
        expect(await storedFiles(), name).toBe(files);
        answers.push(problem);
      }
      // An unknown uuid and another organization's get the same words.
      expect(answers[5]?.detail).toBe(answers[0]?.detail);

      const bad = await call(world.app, {
        method: 'PUT',
        url: base('user', 'back'),
        token: world.memberA.token,
        payload: { items: [{ uuid: 'not-a-uuid' }], extra: true },
      });
      expectProblem(bad, 400, 'validation_failed');
      const tooMany = await reorder(world.memberA, 'user', 'back', Array<string>(11).fill(x));
      expectProblem(tooMany, 400, 'validation_failed');
      expect(await uuids(world.memberA, 'user', 'back')).toEqual(mine);

      await reorder(world.memberA, 'user', 'back', []);
      await reorder(world.memberA, 'user', 'front', []);
      await reorder(world.adminA, 'user', 'back', []);
      await reorder(world.adminA, 'organization', 'front', []);
      await reorder(world.adminB, 'organization', 'back', []);
    });

    it('applies an order sent with If-Match only to the list it was made from', async () => {
      const side = 'back' as const;
      const first = await uploaded(world.memberB, 'user', side, 'first');
      const read = await call(world.app, {
        method: 'GET',
        url: base('user', side),
        token: world.memberB.token,
      });
      const tag = read.headers.etag as string;
      expect(tag).toMatch(/^"[\w-]{22}"$/);
      const order = read.json<{ items: CoverItem[] }>().items.map((c) => c.uuid);
      // Another client uploads meanwhile; the order made from the earlier list would delete it.
      const second = await uploaded(world.memberB, 'user', side, 'second');
      const put = (items: string[], ifMatch?: string) =>
        call(world.app, {
          method: 'PUT',
          url: base('user', side),
          token: world.memberB.token,
          payload: { items: items.map((uuid) => ({ uuid })) },
          headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
        });
      const stale = expectProblem(await put(order, tag), 412, 'precondition_failed');
      expect(stale.detail).toMatch(/^The covers changed since the list was read/);
      expect(await uuids(world.memberB, 'user', side)).toEqual([first, second]);
      // The list read again gives the tag that lets the order through; `*` matches any.
      const again = await call(world.app, {
        method: 'GET',
        url: base('user', side),
        token: world.memberB.token,
      });
      expect(again.headers.etag).not.toBe(tag);
      expect(
        (await put([second, first], `"other", ${String(again.headers.etag)}`)).statusCode,
      ).toBe(204);
      expect(await uuids(world.memberB, 'user', side)).toEqual([second, first]);
      expect((await put([first], '*')).statusCode).toBe(204);
      // Without If-Match the order applies to the list as it is, as before.
      expect((await put([])).statusCode).toBe(204);
      expect(await uuids(world.memberB, 'user', side)).toEqual([]);
    });

    it('keeps the JSON body limit and refuses multipart bodies', async () => {
      const form = coverForm(await makePdf());
      const multipartPut = await call(world.app, {
        method: 'PUT',
        url: base('user', 'front'),
        token: world.memberA.token,
        ...form,
      });
      expectProblem(multipartPut, 415, 'unsupported_media_type');
      const statistics = await call(world.app, {
        method: 'POST',
        url: '/api/v1/offers/statistics',
        token: world.memberA.token,
        ...form,
      });
      expectProblem(statistics, 415, 'unsupported_media_type');
      const huge = await call(world.app, {
        method: 'PUT',
        url: base('user', 'front'),
        token: world.memberA.token,
        payload: JSON.stringify({ items: [], pad: 'x'.repeat(limits.jsonBodyBytes) }),
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(huge, 413, 'payload_too_large');
    });
  });

  describe('storage', () => {
    it("deletes a user's covers, bytes included, with the user", async () => {
      const db = world.stores.accounts.db;
      const leaver = await addMember(
        world,
        world.memberA.organizationId,
        `leaver-${backend}`,
        false,
      );
      await uploaded(leaver, 'user', 'front', 'mine');
      await uploaded(leaver, 'user', 'back', 'mine too');
      const files = await storedFiles();
      await db.deleteFrom('users').where('id', '=', leaver.userId).execute();
      expect(await storedFiles()).toBe(files - 2);
      const left = await db
        .selectFrom('covers')
        .select('id')
        .where('user_id', '=', leaver.userId)
        .execute();
      expect(left).toEqual([]);
    });
  });

  describe('who may do what', () => {
    it('organization covers: members read, admins change, other organizations see nothing', async () => {
      const pdf = await makePdf(1, 'Org A');
      expectProblem(await upload(world.memberA, 'organization', 'front', pdf), 403, 'forbidden');
      expect(await list(world.memberA, 'organization', 'front')).toEqual([]);

      const created = await upload(world.adminA, 'organization', 'front', pdf);
      expect(created.statusCode).toBe(201);
      const id = created.json<CoverCreated>().uuid;

      for (const member of [world.adminA, world.memberA]) {
        expect(await uuids(member, 'organization', 'front')).toEqual([id]);
        const file = await download(member, id);
        expect(file.statusCode).toBe(200);
        expect(Buffer.compare(file.rawPayload, pdf)).toBe(0);
      }
      for (const member of [world.adminB, world.memberB]) {
        expect(await uuids(member, 'organization', 'front')).not.toContain(id);
        expectSameAsMissing(await download(member, id), await download(member, MISSING));
      }

      expectProblem(await reorder(world.memberA, 'organization', 'front', []), 403, 'forbidden');
      expectProblem(await reorder(world.memberA, 'organization', 'front', [id]), 403, 'forbidden');
      expectProblem(
        await reorder(world.adminB, 'organization', 'front', [id]),
        400,
        'validation_failed',
      );
      expect(await uuids(world.memberA, 'organization', 'front')).toEqual([id]);

      expect((await reorder(world.adminA, 'organization', 'front', [])).statusCode).toBe(204);
      expect(await uuids(world.memberA, 'organization', 'front')).toEqual([]);
    });

    it("user covers: only their owner sees or changes them, not even the organization's admin", async () => {
      const pdf = await makePdf(1, 'Member A');
      const created = await upload(world.memberA, 'user', 'back', pdf);
      expect(created.statusCode).toBe(201);
      const id = created.json<CoverCreated>().uuid;

      expect(await uuids(world.memberA, 'user', 'back')).toEqual([id]);
      expect((await download(world.memberA, id)).statusCode).toBe(200);
      for (const member of [world.adminA, world.adminB, world.memberB]) {
        expect(await uuids(member, 'user', 'back')).not.toContain(id);
        expect(await uuids(member, 'organization', 'back')).not.toContain(id);
        expectSameAsMissing(await download(member, id), await download(member, MISSING));
        expectProblem(await reorder(member, 'user', 'back', [id]), 400, 'validation_failed');
      }
      // Each user's own covers stay apart: another user's PUT of [] removes only theirs.
      expect((await reorder(world.adminA, 'user', 'back', [])).statusCode).toBe(204);
      expect(await uuids(world.memberA, 'user', 'back')).toEqual([id]);
      expect((await reorder(world.memberA, 'user', 'back', [])).statusCode).toBe(204);
    });

    it('asks for a token on every covers route', async () => {
      const form = coverForm(await makePdf());
      const requests = [
        { method: 'GET' as const, url: base('user', 'front') },
        { method: 'POST' as const, url: base('organization', 'back'), ...form },
        { method: 'PUT' as const, url: base('user', 'front'), payload: { items: [] } },
        { method: 'GET' as const, url: `/api/v1/user-settings/covers/file/${MISSING}` },
      ];
      for (const request of requests) {
        expectProblem(await call(world.app, request), 401, 'unauthenticated');
      }
      const query = await call(world.app, {
        method: 'GET',
        url: `${base('user', 'front')}?access_token=${world.memberA.token}`,
      });
      expectProblem(query, 401, 'unauthenticated');
    });

    it('refuses unknown scopes, sides and malformed uuids', async () => {
      const token = world.memberA.token;
      for (const url of [
        '/api/v1/user-settings/covers/team/front',
        '/api/v1/user-settings/covers/user/middle',
        '/api/v1/user-settings/covers/file/42',
      ]) {
        expectProblem(
          await call(world.app, { method: 'GET', url, token }),
          400,
          'validation_failed',
        );
      }
    });
  });
});

/** A cover the caller may not see is answered exactly like one that does not exist. */
function expectSameAsMissing(hidden: LightMyRequestResponse, missing: LightMyRequestResponse) {
  const a = expectProblem(hidden, 404, 'not_found');
  const b = expectProblem(missing, 404, 'not_found');
  expect({ ...a, requestId: '' }).toEqual({ ...b, requestId: '' });
  const headers = (res: LightMyRequestResponse) => {
    const rest: Record<string, unknown> = { ...res.headers };
    delete rest['x-request-id'];
    delete rest.date;
    return rest;
  };
  expect(headers(hidden)).toEqual(headers(missing));
  expect(hidden.body.replace(a.requestId, '')).toBe(missing.body.replace(b.requestId, ''));
}

describe('covers in the OpenAPI document', () => {
  const world = worldForSuite('sqlite');

  it('describes the multipart upload and the binary download', async () => {
    const res = await call(world().app, { method: 'GET', url: '/api/v1/openapi.json' });
    interface Operation {
      requestBody?: { content: Record<string, { schema: unknown }> };
      responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
    }
    const paths = res.json<{ paths: Record<string, Record<string, Operation>> }>().paths;
    const kind = paths['/api/v1/user-settings/covers/{scope}/{side}'];
    const file = paths['/api/v1/user-settings/covers/file/{uuid}'];
    expect(Object.keys(kind ?? {}).sort()).toEqual(['get', 'post', 'put']);
    expect(kind?.post?.requestBody?.content).toEqual({
      'multipart/form-data': {
        schema: expect.objectContaining({
          required: ['cover'],
          properties: {
            cover: expect.objectContaining({ type: 'string', format: 'binary' }) as unknown,
          },
        }) as unknown,
      },
    });
    expect(Object.keys(kind?.post?.responses ?? {}).sort()).toEqual(
      ['201', '400', '401', '403', '409', '413', '415', '429', '500', '501', '503'].sort(),
    );
    expect(Object.keys(kind?.put?.responses ?? {})).toContain('204');
    expect(file?.get?.responses['200']?.content).toEqual({
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
    });
    expect(Object.keys(file?.get?.responses ?? {})).toContain('404');
  });
});
