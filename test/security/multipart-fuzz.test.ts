import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { limits } from '../../src/limits.js';
import { describeBackends } from '../helpers/backends.js';
import { accountState, expectRefusal, FUZZ_SEED } from '../helpers/fuzz.js';
import { multipart, type MultipartOptions, type Part } from '../helpers/multipart.js';
import { makePdf, refusedPdfs } from '../helpers/pdf.js';
import { expectProblem } from '../helpers/problem.js';
import { call, createWorld, type World } from '../helpers/world.js';

/*
 * The cover upload is the one route that reads multipart bodies, parsed by hand-picked limits and
 * a PDF parser. It gets generated malformed forms: broken boundaries and line breaks, missing,
 * duplicated, misnamed and extra parts, parts without a file name or that are no form field at
 * all, huge part headers, bytes that are not a PDF (labelled as one or not), truncated and oddly
 * built PDFs, Unicode and prototype field names. Each request is wrong in at least one way the service must refuse, whatever else
 * is drawn; every answer must be a 4xx problem+json, and the account store unchanged. Bodies
 * beyond the size limit are costly to build, so a few are sent apart from the generated ones.
 */

const RUNS = 250;
const BOUNDARY = 'fuzz-boundary-4b1d';
const UPLOAD_ROUTE = 'POST /api/v1/user-settings/covers/{scope}/{side}';
const ATTACHMENT_ROUTE = 'POST /api/v1/dossiers/{id}/attachments';

/** What this test reads of the OpenAPI document. */
interface OpenApi {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
}

/** What is sent, and what is wrong with it (the failure message shows it). */
interface Attempt {
  defect: string;
  contentType: string | undefined;
  payload: Buffer;
  scope: string;
  side: string;
}

/** The bytes a cover part carries. */
interface FileDraw {
  label: string;
  data: Buffer;
}

/** Field names that are not `cover`, among them prototype keys and look-alikes. */
const otherName = fc
  .oneof(
    fc.constantFrom(
      '',
      'Cover',
      'COVER',
      'cover ',
      ' cover',
      'cover[]',
      'cover[0]',
      'cover.pdf',
      'file',
      'title',
      'cöver',
      'cover\u200b',
      '\uFEFFcover',
      'cover\u0000',
      '💥',
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      'valueOf',
      '__defineGetter__',
    ),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 30 }),
  )
  // Quotes, semicolons, backslashes or line breaks could spell `name="cover"` inside the header.
  .filter((name) => name !== 'cover' && !/["\\;\r\n]/.test(name));

const fileName = fc.oneof(
  fc.constantFrom('cover.pdf', '', '../../etc/passwd', 'C:\\x\\y.pdf', 'Titelblatt Müller.pdf'),
  fc.string({ unit: 'grapheme', maxLength: 40 }).filter((n) => !/["\\\r\n]/.test(n)),
);
const declaredType = fc.constantFrom(
  undefined,
  'application/pdf',
  'application/octet-stream',
  'image/png',
  'text/plain',
  'application/json',
);
/** Content-Type headers that announce the body's boundary correctly. */
const rightType = fc.constantFrom(
  `multipart/form-data; boundary=${BOUNDARY}`,
  `multipart/form-data; boundary="${BOUNDARY}"`,
  `Multipart/Form-Data; charset=utf-8; boundary=${BOUNDARY}`,
);

const partOf = (data: Buffer, filename: string, contentType: string | undefined): Part => ({
  name: 'cover',
  filename,
  ...(contentType ? { contentType } : {}),
  data,
});

const body = (parts: Part[], options: MultipartOptions = {}) =>
  multipart(parts, BOUNDARY, options).payload;

/** Malformed uploads around a good PDF and PDFs the service refuses. */
function malformedUploads(goodPdf: Buffer, oddPdfs: Record<string, Buffer>): fc.Arbitrary<Attempt> {
  /** Contents the upload refuses, whatever the form around them. */
  function refusedFile(): fc.Arbitrary<FileDraw> {
    const endMarker = goodPdf.lastIndexOf('%%EOF');
    return fc.oneof(
      fc
        .oneof(
          fc.uint8Array({ maxLength: 4096 }).map((bytes) => Buffer.from(bytes)),
          fc
            .constantFrom('', 'hello', '<html></html>', '%PDF', '%pdf-1.7\n%%EOF', '\u0000')
            .map((text) => Buffer.from(text, 'latin1')),
          fc.constant(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')),
        )
        .filter((bytes) => bytes.subarray(0, 1024).indexOf('%PDF-') < 0)
        .map((data) => ({ label: `not a PDF (${String(data.length)} bytes)`, data })),
      // Cut anywhere before the end marker is complete.
      fc.integer({ min: 0, max: endMarker + 4 }).map((at) => ({
        label: `PDF truncated at ${String(at)} of ${String(goodPdf.length)}`,
        data: goodPdf.subarray(0, at),
      })),
      fc.constantFrom(...Object.keys(oddPdfs)).map((label) => ({
        label: `odd PDF: ${label}`,
        data: oddPdfs[label] ?? Buffer.alloc(0),
      })),
    );
  }

  /** Contents for parts whose form is wrong anyway: a good PDF or a refused one. */
  const anyFile = () =>
    fc.oneof(fc.constant<FileDraw>({ label: 'good PDF', data: goodPdf }), refusedFile());

  const extraPart = (): fc.Arbitrary<Part> =>
    fc
      .record({
        name: fc.oneof(otherName, fc.constant('cover')),
        asFile: fc.boolean(),
        filename: fileName,
        contentType: declaredType,
        file: anyFile(),
      })
      .map(({ name, asFile, filename, contentType, file }) => ({
        name,
        ...(asFile ? { filename } : {}),
        ...(contentType ? { contentType } : {}),
        data: file.data,
      }));

  const where = fc.record({
    scope: fc.constantFrom('user', 'organization'),
    side: fc.constantFrom('front', 'back'),
  });

  /** A well-formed form whose one `cover` file is no acceptable PDF. */
  const badContent = fc
    .tuple(refusedFile(), fileName, declaredType, rightType)
    .map(([file, filename, type, contentType]) => ({
      defect: file.label,
      contentType,
      payload: body([partOf(file.data, filename, type)]),
    }));

  /** The wrong parts: none, misnamed, extra, duplicated, or a field instead of a file. */
  const badParts = fc.oneof(
    fc.constantFrom(
      { defect: 'no parts', payload: body([]) },
      { defect: 'empty body', payload: Buffer.alloc(0) },
    ),
    fc.array(extraPart(), { minLength: 1, maxLength: 3 }).map((parts) => ({
      defect: 'only other parts',
      payload: body(parts.map((p) => (p.name === 'cover' ? { ...p, name: 'cover2' } : p))),
    })),
    fc.tuple(otherName, fileName, anyFile()).map(([name, filename, file]) => ({
      defect: `file in field ${JSON.stringify(name)}`,
      payload: body([{ ...partOf(file.data, filename, 'application/pdf'), name }]),
    })),
    fc
      .tuple(fileName, anyFile(), fc.array(extraPart(), { minLength: 1, maxLength: 3 }), fc.nat())
      .map(([filename, file, extras, at]) => {
        const parts = [...extras];
        parts.splice(at % (extras.length + 1), 0, partOf(file.data, filename, 'application/pdf'));
        return {
          defect: `cover among ${String(extras.length)} more part(s): ${extras.map((p) => JSON.stringify(p.name)).join(', ')}`,
          payload: body(parts),
        };
      }),
    fc.tuple(fileName, fileName).map(([a, b]) => ({
      defect: 'cover sent twice',
      payload: body([partOf(goodPdf, a, 'application/pdf'), partOf(goodPdf, b, 'application/pdf')]),
    })),
    fc.tuple(anyFile(), declaredType).map(([file, type]) => ({
      defect: `cover without a file name, typed ${String(type)}`,
      payload: body([{ name: 'cover', ...(type ? { contentType: type } : {}), data: file.data }]),
    })),
    // A part that is not a form field at all (form parsers skip it unseen), before or after a
    // good cover.
    fc
      .tuple(
        fc.constantFrom(
          null,
          'attachment; name="cover"; filename="c.pdf"',
          'inline',
          'form-data; name="line\nbreak"',
        ),
        fc.boolean(),
        anyFile(),
      )
      .map(([disposition, first, file]) => {
        const other: Part = { name: 'other', disposition, data: file.data };
        const cover = partOf(goodPdf, 'cover.pdf', 'application/pdf');
        return {
          defect: `part with Content-Disposition ${String(disposition)} ${first ? 'before' : 'after'} the cover`,
          payload: body(first ? [other, cover] : [cover, other]),
        };
      }),
  );
  const badPartsRequest = fc
    .tuple(badParts, rightType)
    .map(([attempt, contentType]) => ({ ...attempt, contentType }));

  /** A good PDF in a form whose framing is broken. */
  const badFraming = fc
    .tuple(
      fc.constantFrom<{
        defect: string;
        contentType: string | undefined;
        options: MultipartOptions;
      }>(
        { defect: 'no Content-Type', contentType: undefined, options: {} },
        {
          defect: 'no boundary',
          contentType: 'multipart/form-data',
          options: {},
        },
        {
          defect: 'empty boundary',
          contentType: 'multipart/form-data; boundary=',
          options: {},
        },
        {
          defect: 'another boundary',
          contentType: 'multipart/form-data; boundary=something-else',
          options: {},
        },
        {
          defect: 'boundary announced with a different case',
          contentType: `multipart/form-data; boundary=${BOUNDARY.toUpperCase()}`,
          options: {},
        },
        {
          defect: 'bare LF line breaks',
          contentType: `multipart/form-data; boundary=${BOUNDARY}`,
          options: { lineBreak: '\n' },
        },
        {
          defect: 'one dash before each boundary',
          contentType: `multipart/form-data; boundary=${BOUNDARY}`,
          options: { dashes: '-' },
        },
        {
          defect: 'no closing delimiter',
          contentType: `multipart/form-data; boundary=${BOUNDARY}`,
          options: { close: false },
        },
      ),
      fileName,
    )
    .map(([{ defect, contentType, options }, filename]) => ({
      defect,
      contentType,
      payload: body([partOf(goodPdf, filename, 'application/pdf')], options),
    }));

  /** A good PDF form cut short, or with its boundary inside the file. */
  const cutShort = fc.oneof(
    fc.nat().map((n) => {
      const whole = body([partOf(goodPdf, 'cover.pdf', 'application/pdf')]);
      // At least the last dash of the closing delimiter is missing.
      const at = n % (whole.length - 3);
      return {
        defect: `body cut at ${String(at)} of ${String(whole.length)}`,
        payload: whole.subarray(0, at),
      };
    }),
    fc.integer({ min: 0, max: goodPdf.length }).map((at) => ({
      defect: `delimiter inside the file at ${String(at)}`,
      payload: body([
        partOf(
          Buffer.concat([
            goodPdf.subarray(0, at),
            Buffer.from(`\r\n--${BOUNDARY}\r\n`),
            goodPdf.subarray(at),
          ]),
          'cover.pdf',
          'application/pdf',
        ),
      ]),
    })),
  );
  const cutShortRequest = fc
    .tuple(cutShort, rightType)
    .map(([attempt, contentType]) => ({ ...attempt, contentType }));

  /** Huge or many part headers (on a file that is refused anyway, so that only a crash fails). */
  const hugeHeaders = fc
    .tuple(
      fc.oneof(
        fc.integer({ min: 1000, max: 200_000 }).map((n) => ({
          defect: `file name of ${String(n)} characters`,
          patch: (p: Part): Part => ({ ...p, filename: 'x'.repeat(n) }),
        })),
        fc.integer({ min: 1000, max: 200_000 }).map((n) => ({
          defect: `header line of ${String(n)} characters`,
          patch: (p: Part): Part => ({ ...p, headers: [`X-Padding: ${'y'.repeat(n)}`] }),
        })),
        fc.integer({ min: 21, max: 500 }).map((n) => ({
          defect: `${String(n)} header lines`,
          patch: (p: Part): Part => ({
            ...p,
            headers: Array.from({ length: n }, (_, i) => `X-H${String(i)}: ${String(i)}`),
          }),
        })),
        fc.integer({ min: 1000, max: 100_000 }).map((n) => ({
          defect: `field name of ${String(n)} characters`,
          patch: (p: Part): Part => ({ ...p, name: 'c'.repeat(n) }),
        })),
        fc.constantFrom(
          {
            defect: 'no Content-Disposition',
            patch: (p: Part): Part => ({ ...p, disposition: null }),
          },
          {
            defect: 'attachment disposition',
            patch: (p: Part): Part => ({
              ...p,
              disposition: 'attachment; name="cover"; filename="c.pdf"',
            }),
          },
          {
            defect: 'disposition without a name',
            patch: (p: Part): Part => ({ ...p, disposition: 'form-data; filename="c.pdf"' }),
          },
        ),
      ),
      refusedFile(),
      rightType,
    )
    .map(([{ defect, patch }, file, contentType]) => ({
      defect: `${defect}, ${file.label}`,
      contentType,
      payload: body([patch(partOf(file.data, 'cover.pdf', 'application/pdf'))]),
    }));

  const attempts: fc.Arbitrary<Attempt> = fc
    .tuple(fc.oneof(badContent, badPartsRequest, badFraming, cutShortRequest, hugeHeaders), where)
    .map(([attempt, { scope, side }]) => ({ ...attempt, scope, side }));
  return attempts;
}

describeBackends('fuzzing the cover upload with malformed multipart bodies', (backend) => {
  let world: World;
  let goodPdf: Buffer;
  let oddPdfs: Record<string, Buffer>;
  beforeAll(async () => {
    world = await createWorld(backend);
    goodPdf = await makePdf(2, 'Fuzz');
    oddPdfs = await refusedPdfs(limits.covers.pdfExpandedStreamBytes);
  });
  afterAll(() => world.close());

  // The attachment upload has its own generated forms (attachment-fuzz.test.ts).
  it('covers every route that takes multipart bodies: the cover upload here, attachments apart', () => {
    const paths = (world.app.swagger() as OpenApi).paths;
    const multipartRoutes = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.requestBody?.content['multipart/form-data'])
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(multipartRoutes.sort()).toEqual([ATTACHMENT_ROUTE, UPLOAD_ROUTE].sort());
  });

  const send = (
    attempt: Pick<Attempt, 'scope' | 'side' | 'contentType'>,
    payload: Buffer | Readable,
  ) =>
    call(world.app, {
      method: 'POST',
      url: `/api/v1/user-settings/covers/${attempt.scope}/${attempt.side}`,
      token: world.adminA.token,
      payload,
      headers: attempt.contentType ? { 'content-type': attempt.contentType } : {},
    });

  it(
    `answers ${String(RUNS)} malformed multipart uploads with a 4xx problem+json and stores nothing`,
    { timeout: 120_000 },
    async () => {
      const before = await accountState(world.stores.accounts.db);
      const defects = new Set<string>();
      await fc.assert(
        fc.asyncProperty(malformedUploads(goodPdf, oddPdfs), async (attempt) => {
          defects.add(attempt.defect.replace(/\d+/g, 'N'));
          const res = await send(attempt, attempt.payload);
          expectRefusal(
            res,
            `${attempt.scope}/${attempt.side} ${attempt.defect} (${String(attempt.contentType)})`,
          );
        }),
        { numRuns: RUNS, seed: FUZZ_SEED },
      );
      expect(await accountState(world.stores.accounts.db)).toBe(before);
      // The generator reached the kinds of damage it was built for.
      expect(defects.size).toBeGreaterThan(30);
    },
  );

  it('refuses bodies beyond the size limit, declared or streamed, and stores nothing', async () => {
    const before = await accountState(world.stores.accounts.db);
    const over = Buffer.alloc(limits.covers.fileBytes + 1, 0x25);
    const chunked = (payload: Buffer) => Readable.from([payload]);
    const type = `multipart/form-data; boundary=${BOUNDARY}`;
    const at = { scope: 'user', side: 'front', contentType: type };

    // Declared length beyond the limit: refused before reading.
    const declared = await send(at, body([partOf(over, 'big.pdf', 'application/pdf')]));
    expectProblem(declared, 413, 'payload_too_large');

    // No declared length: the file's bytes are counted as they arrive.
    const streamed = await send(at, chunked(body([partOf(over, 'big.pdf', 'application/pdf')])));
    expectProblem(streamed, 413, 'payload_too_large');

    // A good cover followed by a huge second file, or preceded by a huge field.
    const second = await send(
      at,
      chunked(
        body([
          partOf(goodPdf, 'c.pdf', 'application/pdf'),
          { name: 'more', filename: 'more.pdf', data: over },
        ]),
      ),
    );
    expectProblem(second, 400, 'validation_failed');
    const field = await send(
      at,
      chunked(body([{ name: 'note', data: over }, partOf(goodPdf, 'c.pdf', 'application/pdf')])),
    );
    expectProblem(field, 400, 'validation_failed');

    expect(await accountState(world.stores.accounts.db)).toBe(before);
  });
});
