import {
  PDFArray,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFRef,
  PDFString,
  type PDFObject,
  type PDFPageLeaf,
} from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  damagedPdfs,
  encryptedPdf,
  bigArrayPdf,
  copiedObjectsPdf,
  editedPagePdf,
  hexStringsPdf,
  makePdf,
  manyObjectsPdf,
  objectStreamPdf,
  pageTreeBombPdf,
  parentLoopPdf,
  rawPdf,
  referenceChainPdf,
} from '../../test/helpers/pdf.js';
import { limits } from '../limits.js';
import { inspectPdf, loadWithinLimits, PdfRefusal } from './pdf-inspection.js';
import { PdfInspector } from './pdf-inspector.js';

async function refusal(bytes: Uint8Array): Promise<string> {
  const error = await inspectPdf(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PdfRefusal);
  return (error as PdfRefusal).reason;
}

describe('PDF inspection', () => {
  it('counts the pages of a valid PDF, 1 to 10', async () => {
    expect(await inspectPdf(await makePdf(1))).toMatchObject({ pages: 1 });
    expect(await inspectPdf(await makePdf(limits.covers.pages))).toMatchObject({ pages: 10 });
  });

  it('weighs what a report copies of a file: the objects of its pages, one more per 1,000 values', async () => {
    const weight = async (count: number, pages = 1, inherited = 0) =>
      (await inspectPdf(await copiedObjectsPdf(count, pages, inherited))).copyWeight;
    const plain = await weight(0);
    // The page's own objects (catalog, page tree, page, content) and their few values.
    expect(plain).toBeGreaterThanOrEqual(3);
    expect(plain).toBeLessThan(10);
    // Every object the page refers to is copied; each holds one value, and the page's array of
    // references one per object: 5,000 objects and 10,000 values more.
    expect(await weight(5000)).toBe(plain + 5000 + 10);
    // An inherited dictionary is copied into each page: 10 pages of 2,000 entries are 20,000
    // values, 20 more than the 10 pages without it (whose own values round up to one).
    const tenPages = await weight(0, 10);
    expect(await weight(0, 10, 2000)).toBe(tenPages + 20);
    // Objects the pages do not refer to are not copied.
    const unreferenced = await PDFDocument.load(await copiedObjectsPdf(0));
    for (let i = 0; i < 2000; i++) unreferenced.context.register(unreferenced.context.obj([i]));
    expect((await inspectPdf(await unreferenced.save())).copyWeight).toBe(plain);
  });

  it('refuses what is not a whole, readable, unencrypted PDF of 1 to 10 pages', async () => {
    const pdf = await makePdf(2);
    expect(await refusal(Buffer.alloc(0))).toBe('is empty');
    expect(await refusal(Buffer.from('Hello, this is text.'))).toMatch(/no %PDF- header/);
    expect(await refusal(pdf.subarray(0, pdf.length - 6))).toMatch(/truncated/);
    expect(await refusal(Buffer.from('%PDF-1.7\n%%EOF\n'))).toMatch(/no readable page tree/);
    expect(await refusal(await makePdf(11))).toBe('has more than 10 pages; at most 10 are allowed');
    expect(await refusal(await encryptedPdf())).toBe('is encrypted');

    const empty = await PDFDocument.create();
    empty.addPage();
    empty.removePage(0);
    expect(await refusal(await empty.save({ addDefaultPage: false }))).toBe('has no pages');

    for (const [damage, bytes] of Object.entries(await damagedPdfs())) {
      expect(await refusal(bytes), damage).toMatch(/not a readable PDF|no readable page tree/);
    }
  });

  it('walks the page tree once: a node listed twice, a loop of parents, too many pages', async () => {
    // 10^8 pages named in a few hundred bytes: counting them had filled the worker's heap.
    const bomb = pageTreeBombPdf(8, 10);
    expect(bomb.length).toBeLessThan(2000);
    expect(await refusal(bomb)).toBe('has a page tree that lists a page or node more than once');
    expect(await refusal(parentLoopPdf())).toBe('has a page whose parents lead round in a loop');
    // A catalog whose page tree is a page: the copier fails inside its own code, which the
    // refusal does not repeat.
    const pagesIsPage = rawPdf([
      '<< /Type /Catalog /Pages 3 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /MediaBox [0 0 595 842] /Parent 2 0 R >>',
    ]);
    expect(await refusal(pagesIsPage)).toBe(
      'cannot be put into a report (its structure is not what its format prescribes)',
    );
    // A tree of distinct nodes is counted, and stops at the first page over the limit.
    expect(await inspectPdf(pageTreeBombPdf(1, 1))).toMatchObject({ pages: 1 });
    expect(await refusal(await makePdf(limits.covers.pages + 1))).toBe(
      `has more than ${String(limits.covers.pages)} pages; at most ${String(limits.covers.pages)} are allowed`,
    );
  });

  describe('a page a report can use', () => {
    type Edit = (page: PDFPageLeaf, document: PDFDocument) => void;
    /** Sets the page's `key` to `value` (a JavaScript value as pdf-lib's `obj` takes it). */
    const set =
      (key: string, value: unknown): Edit =>
      (page, document) =>
        page.set(PDFName.of(key), toObject(document, value));
    const toObject = (document: PDFDocument, value: unknown): PDFObject =>
      value instanceof Object && 'clone' in value
        ? (value as PDFObject)
        : document.context.obj(value as number);
    const both =
      (...edits: Edit[]): Edit =>
      (page, document) => {
        for (const edit of edits) edit(page, document);
      };
    const drop =
      (key: string): Edit =>
      (page) =>
        page.delete(PDFName.of(key));
    /** Sets `key` on the page tree's root, for every page to inherit. */
    const onRoot =
      (key: string, value: unknown): Edit =>
      (_, document) =>
        document.catalog.Pages().set(PDFName.of(key), toObject(document, value));
    const sides = '3 to 14400 on a side are allowed';

    it('refuses a page whose boxes, rotation, contents, resources or annotations a report cannot use, naming the page', async () => {
      const refused: [string, Edit, string][] = [
        ['no area', set('MediaBox', [0, 0, 0, 0]), 'has a /MediaBox of zero area'],
        ['no height', set('MediaBox', [0, 0, 595, 0]), 'has a /MediaBox of zero area'],
        [
          'huge',
          set('MediaBox', [0, 0, 1e30, 1e30]),
          `has a /MediaBox of 1e+30 × 1e+30 units; ${sides}`,
        ],
        [
          'wider than 14,400',
          set('MediaBox', [0, 0, 14_401, 842]),
          `has a /MediaBox of 14401 × 842 units; ${sides}`,
        ],
        [
          'smaller than 3',
          set('MediaBox', [10, 10, 12.5, 500]),
          `has a /MediaBox of 2.5 × 490 units; ${sides}`,
        ],
        ['3 numbers', set('MediaBox', [0, 0, 595]), 'has a /MediaBox that is not 4 numbers'],
        [
          '5 numbers',
          set('MediaBox', [0, 0, 595, 842, 1]),
          'has a /MediaBox that is not 4 numbers',
        ],
        ['a string', set('MediaBox', PDFString.of('abc')), 'has a /MediaBox that is not 4 numbers'],
        [
          'a name in it',
          set('MediaBox', [0, 0, 'A4', 842]),
          'has a /MediaBox that is not 4 numbers',
        ],
        ['none', drop('MediaBox'), 'has no /MediaBox (on the page or the page tree above it)'],
        [
          'a null one, and none above',
          set('MediaBox', PDFNull),
          'has no /MediaBox (on the page or the page tree above it)',
        ],
        [
          'crop of no area',
          set('CropBox', [5, 5, 5, 5]),
          'has a /CropBox that leaves less than 3 × 3 units of its /MediaBox to show',
        ],
        ['crop of 2 numbers', set('CropBox', [0, 0]), 'has a /CropBox that is not 4 numbers'],
        [
          'crop outside',
          set('CropBox', [1000, 1000, 1500, 1500]),
          'has a /CropBox that leaves less than 3 × 3 units of its /MediaBox to show',
        ],
        [
          'rotation of 33',
          set('Rotate', 33),
          'has a /Rotate of 33; only multiples of 90 are allowed',
        ],
        [
          'rotation of -45',
          set('Rotate', -45),
          'has a /Rotate of -45; only multiples of 90 are allowed',
        ],
        [
          'rotation of 90.5',
          set('Rotate', 90.5),
          'has a /Rotate of 90.5; only multiples of 90 are allowed',
        ],
        [
          'rotation of 9e15',
          set('Rotate', 9e15),
          'has a /Rotate of 9000000000000000; multiples of 90 up to ±2147483647 are allowed',
        ],
        ['rotation by name', set('Rotate', 'R90'), 'has a /Rotate that is not a number'],
        [
          'unit of 75,000',
          set('UserUnit', 75_000),
          `is 44625000 × 63150000 points (its /MediaBox of 595 × 842 units times its /UserUnit of 75000); a report's pages may be at most 14400 points (200 inches) on a side`,
        ],
        ['unit of 0', set('UserUnit', 0), 'has a /UserUnit that is not a positive number'],
        ['negative unit', set('UserUnit', -2), 'has a /UserUnit that is not a positive number'],
        ['unit by name', set('UserUnit', 'Inch'), 'has a /UserUnit that is not a positive number'],
        [
          'contents a number',
          set('Contents', 5),
          'has a /Contents that is neither a stream nor an array of streams',
        ],
        [
          'contents an array of numbers',
          set('Contents', [5]),
          'has a /Contents that is neither a stream nor an array of streams',
        ],
        [
          'contents a dictionary',
          (page, document) =>
            page.set(PDFName.of('Contents'), document.context.register(document.context.obj({}))),
          'has a /Contents that is neither a stream nor an array of streams',
        ],
        [
          'resources a string',
          set('Resources', PDFString.of('x')),
          'has a /Resources that is not a dictionary',
        ],
        [
          'resources inherited an array',
          both(drop('Resources'), onRoot('Resources', [1, 2])),
          'has a /Resources that is not a dictionary',
        ],
        [
          'annotations a string',
          set('Annots', PDFString.of('x')),
          'has an /Annots that is not an array',
        ],
      ];
      for (const [name, edit, reason] of refused) {
        const answer = await inspectPdf(await editedPagePdf(edit)).catch((e: unknown) => e);
        expect(answer, name).toBeInstanceOf(PdfRefusal);
        expect((answer as PdfRefusal).reason, name).toBe(`page 3 ${reason}`);
      }
    });

    it('refuses a page for what it inherits from the page tree, as a report’s copy takes it', async () => {
      // Every page inherits the root's: the first page is named.
      const rotated = await editedPagePdf(both(drop('Rotate'), onRoot('Rotate', 33)));
      expect(await refusal(rotated)).toBe(
        'page 1 has a /Rotate of 33; only multiples of 90 are allowed',
      );
      const cropped = await editedPagePdf(onRoot('CropBox', [0, 0, 595]));
      expect(await refusal(cropped)).toBe('page 1 has a /CropBox that is not 4 numbers');
      // The page's own entry is the one a report takes, not the root's.
      const own = await editedPagePdf(both(onRoot('Rotate', 90), set('Rotate', 33)), 1);
      expect(await refusal(own)).toBe(
        'page 1 has a /Rotate of 33; only multiples of 90 are allowed',
      );
      const ownLegal = await editedPagePdf(both(onRoot('Rotate', 33), set('Rotate', 90)), 1);
      expect(await inspectPdf(ownLegal)).toMatchObject({ pages: 1 });
    });

    it('takes pages that are unusual but legal', async () => {
      const legal: [string, Edit][] = [
        ['rotation of -90', set('Rotate', -90)],
        ['rotation of 270', set('Rotate', 270)],
        ['rotation of -270', set('Rotate', -270)],
        ['rotation of 450', set('Rotate', 450)],
        ['rotation inherited', onRoot('Rotate', 180)],
        ['corners in reverse order', set('MediaBox', [595, 842, 0, 0])],
        ['corners of negative coordinates', set('MediaBox', [0, 0, -595, -842])],
        ['box inherited', both(drop('MediaBox'), onRoot('MediaBox', [0, 0, 595, 842]))],
        [
          'box null, inherited',
          both(set('MediaBox', PDFNull), onRoot('MediaBox', [0, 0, 595, 842])),
        ],
        [
          'box and its numbers indirect',
          (page, document) => {
            const height = document.context.register(PDFNumber.of(842));
            const box = document.context.register(document.context.obj([0, 0, 595, height]));
            page.set(PDFName.of('MediaBox'), box);
          },
        ],
        ['the largest box', set('MediaBox', [0, 0, 14_400, 14_400])],
        ['the smallest box', set('MediaBox', [0, 0, 3, 3])],
        ['crop within', set('CropBox', [10, 10, 300, 400])],
        ['crop beyond the media box', set('CropBox', [-100, -100, 300, 400])],
        ['crop inherited', onRoot('CropBox', [0, 0, 595, 842])],
        ['no contents', drop('Contents')],
        ['no contents nor resources', both(drop('Contents'), drop('Resources'))],
        ['null contents', set('Contents', PDFNull)],
        [
          'contents one stream',
          (page, document) => {
            const stream = document.context.register(document.context.stream('0 0 m 10 10 l S'));
            page.set(PDFName.of('Contents'), stream);
          },
        ],
        ['resources inherited', both(drop('Resources'), onRoot('Resources', {}))],
        ['unit of 2', set('UserUnit', 2)],
        ['unit of 0.5', set('UserUnit', 0.5)],
        // 2.5 × 2.5 points: tiny, but 5 units on a side as the specification counts them.
        ['a small box at a small unit', both(set('MediaBox', [0, 0, 5, 5]), set('UserUnit', 0.5))],
        [
          '8,000 units at a unit of 1.5: 12,000 points',
          both(set('MediaBox', [0, 0, 8000, 8000]), set('UserUnit', 1.5)),
        ],
        // Clipped to the media box by readers (ISO 32000-1, 14.11.2).
        ['a crop box far beyond the media box', set('CropBox', [-10_000, -10_000, 10_000, 10_000])],
        ['a huge crop box', set('CropBox', [0, 0, 1e30, 1e30])],
        ['no annotations', set('Annots', [])],
      ];
      for (const [name, edit] of legal) {
        const facts = await inspectPdf(await editedPagePdf(edit)).catch((e: unknown) => e);
        expect(facts, name).toMatchObject({ pages: 3 });
      }
    });
  });

  it('counts objects before parsing them, those in object streams too', async () => {
    const max = limits.covers.pdfObjects;
    const withObjects = async (count: number) => {
      const document = await PDFDocument.create();
      document.addPage();
      for (let i = 0; i < count; i++) document.context.register(document.context.obj([i]));
      return document;
    };
    // Below the limit with the page's own objects and, saved so, the object streams themselves.
    const fits = await withObjects(max - 300);
    expect(await inspectPdf(await fits.save({ useObjectStreams: false }))).toMatchObject({
      pages: 1,
    });
    expect(await inspectPdf(await fits.save({ useObjectStreams: true }))).toMatchObject({
      pages: 1,
    });
    const over = await withObjects(max);
    const plain = /^has (\d+) objects; at most (\d+) are allowed$/.exec(
      await refusal(await over.save({ useObjectStreams: false })),
    );
    expect(Number(plain?.[1])).toBeGreaterThan(max);
    expect(Number(plain?.[2])).toBe(max);
    expect(await refusal(await over.save({ useObjectStreams: true }))).toBe(
      `has more than ${String(max)} objects; at most ${String(max)} are allowed`,
    );
    // Counted from the bytes, before anything is parsed: a million objects are refused at once.
    expect(await refusal(await manyObjectsPdf(1_000_000))).toMatch(/^has 100000\d objects;/);
    // Without their `endobj` (which the parser does not need), counted by their headers.
    expect(await refusal(await manyObjectsPdf(300_000, ''))).toMatch(/^has 30000\d objects;/);
    // With comments between the header's words, which only the parser sees through: counted
    // once built, and refused before any page is read.
    const hidden = await manyObjectsPdf(max + 10, '', ' %c\n');
    expect(await refusal(hidden)).toMatch(/^has 100\d\d objects; at most 10000 are allowed$/);
    // An object stream that says it holds fewer than none takes nothing off the count.
    const streams = Buffer.from(await over.save({ useObjectStreams: true }));
    const afterHeader = streams.indexOf('\n', streams.indexOf('\n') + 1) + 1;
    const negative = Buffer.from(
      `99999 0 obj\n<< /Type /ObjStm /N -${String(max)} /First 0 /Length 0 >>\nstream\n\nendstream\nendobj\n`,
      'latin1',
    );
    const crafted = Buffer.concat([
      streams.subarray(0, afterHeader),
      negative,
      streams.subarray(afterHeader),
    ]);
    expect(await refusal(crafted)).toBe(
      `has more than ${String(max)} objects; at most ${String(max)} are allowed`,
    );
  });

  it('counts the values of its arrays and dictionaries, nested ones too', async () => {
    const max = limits.covers.pdfValues;
    // The one-page file around the array holds a few dozen values of its own.
    expect(await inspectPdf(await bigArrayPdf(max - 1000))).toMatchObject({ pages: 1 });
    expect(await refusal(await bigArrayPdf(max + 1))).toBe(
      `has more than ${String(max)} values in its arrays and dictionaries; at most ${String(max)} are allowed`,
    );
    // Spread over many small arrays nested in one another, they count the same.
    const nested = (depth: number): string =>
      depth === 0 ? '[1 2 3]' : `[${nested(depth - 1)} 0]`;
    const deep = (await bigArrayPdf(0)).toString('latin1');
    const at = deep.lastIndexOf('\nxref') + 1;
    const arrays = Array.from(
      { length: 80 },
      (_, i) => `${String(900 + i)} 0 obj\n${nested(1000)}\nendobj\n`,
    );
    expect(
      await refusal(Buffer.from(deep.slice(0, at) + arrays.join('') + deep.slice(at), 'latin1')),
    ).toMatch(/^has more than \d+ values in its arrays and dictionaries/);
  });

  it('expands object streams up to the limit and no further', async () => {
    expect(await inspectPdf(await objectStreamPdf(1024 * 1024))).toMatchObject({ pages: 1 });
    const limit = limits.covers.pdfExpandedStreamBytes;
    expect(await refusal(await objectStreamPdf(limit + 1))).toBe(
      `expands its compressed object streams beyond ${limit} bytes`,
    );
    expect(await refusal(await objectStreamPdf(1000, 'LZWDecode'))).toMatch(
      /only \/FlateDecode is accepted/,
    );
  });
});

/** The organization whose turn an inspection takes. */
const ORG = 'organization-a';

describe('PDF inspection worker', () => {
  const inspectors: PdfInspector[] = [];
  const inspector = (heapMb: number, timeoutMs: number, workers?: number) => {
    const made = new PdfInspector({ heapMb, timeoutMs, ...(workers ? { workers } : {}) });
    inspectors.push(made);
    return made;
  };
  afterAll(() => Promise.all(inspectors.map((i) => i.close())));

  it('answers in order, and refusals come back as refusals', async () => {
    const worker = inspector(limits.covers.pdfWorkerHeapMb, limits.covers.pdfInspectionMs);
    const [three, one] = [await makePdf(3), await makePdf(1)];
    const answers = await Promise.allSettled([
      worker.inspect(three, ORG),
      worker.inspect(await makePdf(11), ORG),
      worker.inspect(one, ORG),
    ]);
    // The facts the worker answers are those of the file, as inspected here.
    expect(answers[0]).toEqual({ status: 'fulfilled', value: await inspectPdf(three) });
    expect(answers[1]).toMatchObject({ status: 'rejected', reason: { name: 'PdfRefusal' } });
    expect(answers[2]).toEqual({ status: 'fulfilled', value: await inspectPdf(one) });
    expect(answers[2]).toMatchObject({ value: { pages: 1 } });
  });

  it('lets organizations take turns: one organization’s queued files do not hold up another’s', async () => {
    // One worker, so that the order of turns shows in the order of the answers.
    const worker = inspector(limits.covers.pdfWorkerHeapMb, limits.covers.pdfInspectionMs, 1);
    const pdf = await makePdf(1);
    const finished: string[] = [];
    const inspect = (name: string, organization: string) =>
      worker.inspect(pdf, organization).then(() => finished.push(name));
    await Promise.all([
      inspect('a1', 'A'),
      inspect('a2', 'A'),
      inspect('a3', 'A'),
      inspect('b1', 'B'),
    ]);
    expect(finished).toEqual(['a1', 'b1', 'a2', 'a3']);
    // Beyond the waiting bound, an organization's next file is refused at once.
    const queued = Array.from({ length: 1 + limits.covers.pdfChecksWaitingPerOrganization }, () =>
      worker.inspect(pdf, 'A'),
    );
    await expect(worker.inspect(pdf, 'A')).rejects.toMatchObject({ reason: 'organization_busy' });
    await Promise.all(queued);
  });

  it('checks another organization’s file in another worker while one organization’s file is long to read', async () => {
    const workers = inspector(limits.covers.pdfWorkerHeapMb, limits.covers.pdfInspectionMs);
    const pdf = await makePdf(1);
    // Both workers started: the check below is the file's own time, not a process's start.
    await Promise.all([workers.inspect(pdf, 'A'), workers.inspect(pdf, 'B')]);
    // Three million values: seconds of parsing, then refused for holding too many.
    const slow = workers.inspect(await bigArrayPdf(3_000_000), 'A').then(
      () => 'A',
      () => 'A',
    );
    const quick = workers.inspect(pdf, 'B').then(() => 'B');
    expect(await Promise.race([slow, quick])).toBe('B');
    // A's next file waits for A's first (an organization checks one file at a time).
    const next = workers.inspect(pdf, 'A').then(() => 'A next');
    expect(await Promise.race([slow.then(() => 'A first'), next])).toBe('A first');
    await next;
    // With one worker B's file waits for A's.
    const one = inspector(limits.covers.pdfWorkerHeapMb, limits.covers.pdfInspectionMs, 1);
    await one.inspect(pdf, 'A');
    const held = one.inspect(await bigArrayPdf(3_000_000), 'A').then(
      () => 'A',
      () => 'A',
    );
    expect(await Promise.race([held, one.inspect(pdf, 'B').then(() => 'B')])).toBe('A');
  });

  it('refuses a file a report could not put in: objects chained deeper than a copy reaches', async () => {
    // The worker's stack is half the render worker's: what it copies, a report copies too.
    const worker = inspector(limits.covers.pdfWorkerHeapMb, limits.covers.pdfInspectionMs);
    await expect(worker.inspect(referenceChainPdf(9_000), ORG)).rejects.toThrow(
      'cover nests its objects too deeply to be put into a report',
    );
    await expect(worker.inspect(referenceChainPdf(100), ORG)).resolves.toMatchObject({ pages: 1 });
  });

  it('refuses a file that needs more memory than the worker has, then recovers', async () => {
    // No deadline to speak of: it is the memory limit that must end this one, however slow.
    const worker = inspector(16, 600_000);
    await expect(worker.inspect(await bigArrayPdf(2_000_000), ORG)).rejects.toThrow(
      'cover is too complex to read (memory limit reached)',
    );
    await expect(worker.inspect(await makePdf(2), ORG)).resolves.toMatchObject({ pages: 2 });
  });

  it('reads hex strings in one piece: a file of them needs about its own size in memory', async () => {
    // 3 MB of hex strings: pdf-lib's own reading kept about 33 bytes per byte (≈ 100 MB), past
    // this worker's 32 MB heap.
    const worker = inspector(32, 600_000);
    const pdf = await hexStringsPdf(30, 100_000);
    expect(pdf.length).toBeGreaterThan(3_000_000);
    await expect(worker.inspect(pdf, ORG)).resolves.toMatchObject({ pages: 1 });
    const document = await loadWithinLimits(pdf, { updateMetadata: false });
    // The same characters as pdf-lib's own reading gives.
    const hex = document.context.lookup(PDFRef.of(900), PDFArray).lookup(0, PDFHexString);
    expect(hex.asString()).toBe('4a'.repeat(50_000));
    expect(Buffer.from(hex.asBytes()).toString('latin1')).toBe('J'.repeat(50_000));
  });

  it('refuses a file that takes longer than the deadline, then recovers', async () => {
    // The deadline runs from the request, and a new worker has to start first (from source, it
    // compiles TypeScript: seconds on a loaded machine). So the deadline is set from this
    // machine's own worker start: a start fits in it five times over, while the file below takes
    // dozens of starts to parse.
    const probe = inspector(1024, 600_000);
    const started = performance.now();
    await probe.inspect(await makePdf(1), ORG);
    const deadlineMs = Math.max(2000, 5 * (performance.now() - started));
    const worker = inspector(1024, deadlineMs);
    // About 14 s of parsing on a quiet machine of two cores.
    const hostile = await bigArrayPdf(12_000_000, 2);
    await expect(worker.inspect(hostile, ORG)).rejects.toThrow(
      'cover is too complex to read (time limit reached)',
    );
    await expect(worker.inspect(await makePdf(2), ORG)).resolves.toMatchObject({ pages: 2 });
  }, 300_000);
});
