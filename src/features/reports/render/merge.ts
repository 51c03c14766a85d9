import { PDFDict, PDFDocument, PDFName, PDFNumber, type PDFPage } from 'pdf-lib';
import { loadWithinLimits, PdfRefusal } from '../../../pdf/pdf-inspection.js';
import { fileErrorReason } from '../../../pdf/file-error.js';
import { checkedPageCount } from '../../../pdf/pdf-structure.js';

/** Pages of other PDFs to put into the generated report. */
export interface Insertions {
  front: Uint8Array | null;
  back: Uint8Array | null;
  /** After generated page `afterPage` (0-based), in order; `title` names the attachment. */
  after: { afterPage: number; bytes: Uint8Array; title: string }[];
}

/**
 * A stored file the report cannot put in: one uploaded before the upload checks that refuse
 * such files (`src/pdf/pdf-structure.ts`, `jpeg-print.ts`). Its report is a 409 that names the
 * file, to be deleted and uploaded again, rather than a 500.
 */
export class UnusableFile extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`${file} cannot be put into a report (${fileErrorReason(cause)})`);
    this.name = 'UnusableFile';
  }
}

/** `work()`, whose failure is `file`'s: a stack overflow, a parse error or a file beyond the
 * limits becomes UnusableFile. */
export async function withFile<T>(file: string, work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // A refusal's reason is worded for any file (its message names a cover).
    throw new UnusableFile(file, error instanceof PdfRefusal ? error.reason : error);
  }
}

/**
 * A stored PDF, loaded for a report: its bytes were checked when they were uploaded, and are
 * again for what a file may hold (`loadWithinLimits`) and for its page tree and pages
 * (`checkedPageCount`; a page the upload check refuses today, such as a /Contents that is a
 * number, would make the report a PDF readers refuse). The page cap is the upload's business.
 */
async function loadStored(bytes: Uint8Array): Promise<PDFDocument> {
  const document = await loadWithinLimits(bytes, { updateMetadata: false });
  const pages = checkedPageCount(document, Infinity);
  if (typeof pages === 'string') throw new PdfRefusal(pages);
  return document;
}

/** How many pages a stored PDF has (`loadStored`). */
export async function pageCount(bytes: Uint8Array, file: string): Promise<number> {
  return withFile(file, async () => (await loadStored(bytes)).getPageCount());
}

export const FRONT_COVER = 'the front cover';
export const BACK_COVER = 'the back cover';
export const attachmentFile = (title: string) => `the attachment “${title}”`;

// A private key on the outline entry of an attached PDF, holding the attachment's place in
// `Insertions.after`: its destination can only be set once its pages are in. Removed then.
const INSERT_KEY = 'PropdataInsert';

/** Marks `entry` as the outline entry of the `index`th attachment put in (`Insertions.after`). */
export function markInsert(entry: PDFKit.PDFOutline, index: number): void {
  (entry as unknown as { outlineData: Record<string, unknown> }).outlineData[INSERT_KEY] = index;
}

/** Points each marked outline entry at the first page of its attachment. */
function pointEntries(report: PDFDocument, firstPages: (PDFPage | undefined)[]): void {
  const visit = (item: PDFDict | undefined) => {
    for (let entry = item; entry; entry = entry.lookupMaybe(PDFName.of('Next'), PDFDict)) {
      const index = entry.lookupMaybe(PDFName.of(INSERT_KEY), PDFNumber)?.asNumber();
      if (index !== undefined) {
        const page = firstPages[index];
        if (page) entry.set(PDFName.of('Dest'), report.context.obj([page.ref, PDFName.of('Fit')]));
        entry.delete(PDFName.of(INSERT_KEY));
      }
      visit(entry.lookupMaybe(PDFName.of('First'), PDFDict));
    }
  };
  const outlines = report.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict);
  visit(outlines?.lookupMaybe(PDFName.of('First'), PDFDict));
}

/**
 * Puts the covers and PDF attachments into the generated report. The pages are copied INTO the
 * generated document, never the other way round: pdf-lib's copyPages drops the outline of the
 * document it copies from, so the report's own catalogue (its outline) must be the one saved.
 */
export async function insertPages(generated: Uint8Array, insert: Insertions): Promise<Uint8Array> {
  if (!insert.front && !insert.back && insert.after.length === 0) return generated;
  const report = await PDFDocument.load(generated, { updateMetadata: false });
  const copy = (bytes: Uint8Array, file: string) =>
    withFile(file, async () => {
      const source = await loadStored(bytes);
      return report.copyPages(source, source.getPageIndices());
    });
  let shift = 0;
  const firstPages: (PDFPage | undefined)[] = [];
  for (const { afterPage, bytes, title } of insert.after) {
    const pages = await copy(bytes, attachmentFile(title));
    pages.forEach((page, i) => report.insertPage(afterPage + 1 + shift + i, page));
    shift += pages.length;
    firstPages.push(pages[0]);
  }
  pointEntries(report, firstPages);
  if (insert.front) {
    const pages = await copy(insert.front, FRONT_COVER);
    pages.forEach((page, i) => report.insertPage(i, page));
  }
  if (insert.back) for (const page of await copy(insert.back, BACK_COVER)) report.addPage(page);
  return report.save();
}
