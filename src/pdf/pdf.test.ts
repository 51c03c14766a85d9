import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  damagedPdfs,
  encryptedPdf,
  makePdf,
  manyObjectsPdf,
  objectStreamPdf,
} from '../../test/helpers/pdf.js';
import { limits } from '../limits.js';
import { inspectPdf, PdfRefusal } from './pdf-inspection.js';
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
    expect(await inspectPdf(await makePdf(1))).toEqual({ pages: 1 });
    expect(await inspectPdf(await makePdf(limits.covers.pages))).toEqual({ pages: 10 });
  });

  it('refuses what is not a whole, readable, unencrypted PDF of 1 to 10 pages', async () => {
    const pdf = await makePdf(2);
    expect(await refusal(Buffer.alloc(0))).toBe('is empty');
    expect(await refusal(Buffer.from('Hello, this is text.'))).toMatch(/no %PDF- header/);
    expect(await refusal(pdf.subarray(0, pdf.length - 6))).toMatch(/truncated/);
    expect(await refusal(Buffer.from('%PDF-1.7\n%%EOF\n'))).toMatch(/no readable page tree/);
    expect(await refusal(await makePdf(11))).toBe('has 11 pages; at most 10 are allowed');
    expect(await refusal(await encryptedPdf())).toBe('is encrypted');

    const empty = await PDFDocument.create();
    empty.addPage();
    empty.removePage(0);
    expect(await refusal(await empty.save({ addDefaultPage: false }))).toBe('has no pages');

    for (const [damage, bytes] of Object.entries(await damagedPdfs())) {
      expect(await refusal(bytes), damage).toMatch(/not a readable PDF|no readable page tree/);
    }
  });

  it('expands object streams up to the limit and no further', async () => {
    expect(await inspectPdf(await objectStreamPdf(1024 * 1024))).toEqual({ pages: 1 });
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
  const inspector = (heapMb: number, timeoutMs: number) => {
    const made = new PdfInspector({ heapMb, timeoutMs });
    inspectors.push(made);
    return made;
  };
  afterAll(() => Promise.all(inspectors.map((i) => i.close())));

  it('answers in order, and refusals come back as refusals', async () => {
    const worker = inspector(limits.covers.pdfWorkerHeapMb, limits.covers.pdfInspectionMs);
    const answers = await Promise.allSettled([
      worker.inspect(await makePdf(3), ORG),
      worker.inspect(await makePdf(11), ORG),
      worker.inspect(await makePdf(1), ORG),
    ]);
    expect(answers[0]).toEqual({ status: 'fulfilled', value: { pages: 3 } });
    expect(answers[1]).toMatchObject({ status: 'rejected', reason: { name: 'PdfRefusal' } });
    expect(answers[2]).toEqual({ status: 'fulfilled', value: { pages: 1 } });
  });

  it('lets organizations take turns: one organization’s queued files do not hold up another’s', async () => {
    const worker = inspector(limits.covers.pdfWorkerHeapMb, limits.covers.pdfInspectionMs);
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

  it('refuses a file that needs more memory than the worker has, then recovers', async () => {
    // No deadline to speak of: it is the memory limit that must end this one, however slow.
    const worker = inspector(16, 600_000);
    await expect(worker.inspect(await manyObjectsPdf(300_000), ORG)).rejects.toThrow(
      'cover is too complex to read (memory limit reached)',
    );
    await expect(worker.inspect(await makePdf(2), ORG)).resolves.toEqual({ pages: 2 });
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
    const hostile = await manyObjectsPdf(1_000_000);
    await expect(worker.inspect(hostile, ORG)).rejects.toThrow(
      'cover is too complex to read (time limit reached)',
    );
    await expect(worker.inspect(await makePdf(2), ORG)).resolves.toEqual({ pages: 2 });
  }, 300_000);
});
