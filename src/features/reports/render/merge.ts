import { PDFDocument } from 'pdf-lib';

/** Pages of other PDFs to put into the generated report. */
export interface Insertions {
  front: Uint8Array | null;
  back: Uint8Array | null;
  /** After generated page `afterPage` (0-based), in order. */
  after: { afterPage: number; bytes: Uint8Array }[];
}

/** How many pages a PDF has (its bytes were checked when they were uploaded). */
export async function pageCount(bytes: Uint8Array): Promise<number> {
  return (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
}

/**
 * Puts the covers and PDF attachments into the generated report. The pages are copied INTO the
 * generated document, never the other way round: pdf-lib's copyPages drops the outline of the
 * document it copies from, so the report's own catalogue (its outline) must be the one saved.
 */
export async function insertPages(generated: Uint8Array, insert: Insertions): Promise<Uint8Array> {
  if (!insert.front && !insert.back && insert.after.length === 0) return generated;
  const report = await PDFDocument.load(generated, { updateMetadata: false });
  const copy = async (bytes: Uint8Array) => {
    const source = await PDFDocument.load(bytes, { updateMetadata: false });
    return report.copyPages(source, source.getPageIndices());
  };
  let shift = 0;
  for (const { afterPage, bytes } of insert.after) {
    const pages = await copy(bytes);
    pages.forEach((page, i) => report.insertPage(afterPage + 1 + shift + i, page));
    shift += pages.length;
  }
  if (insert.front) {
    const pages = await copy(insert.front);
    pages.forEach((page, i) => report.insertPage(i, page));
  }
  if (insert.back) for (const page of await copy(insert.back)) report.addPage(page);
  return report.save();
}
