import type { Doc } from './page.js';

/** The header's font: bold, at most this size, and never below the smallest. */
const HEADER_SIZE = 8;
const SMALLEST_SIZE = 5;
/** Space above and below the header's lines in its band. */
const PADDING = 5;

export interface HeaderCell {
  text: string;
  /** The width the text may take (the column less its padding). */
  width: number;
}

export interface HeaderLayout {
  /** Font size of each cell's text. */
  sizes: number[];
  /** Height of the band: its tallest wrapped header and the padding. */
  height: number;
}

/**
 * How a table's headers fit their columns: each wraps between words onto as many lines as it
 * needs, and the band is as tall as the tallest; a header holding a word wider than its column
 * gets a smaller font until the word fits, since a word cut in two ("Anno di c / ostruzione")
 * or hidden reads worse than smaller type.
 */
export function headerLayout(doc: Doc, cells: HeaderCell[], minHeight: number): HeaderLayout {
  doc.font('bold');
  const sizes = cells.map(({ text, width }) => {
    doc.fontSize(HEADER_SIZE);
    const widest = Math.max(0, ...text.split(/\s+/).map((word) => doc.widthOfString(word)));
    // A hair of room: pdfkit breaks a word that fills its width exactly.
    const fits = (width - 0.5) / widest;
    return fits >= 1 ? HEADER_SIZE : Math.max(SMALLEST_SIZE, HEADER_SIZE * fits);
  });
  const heights = cells.map(({ text, width }, i) =>
    text === '' ? 0 : doc.fontSize(sizes[i] ?? HEADER_SIZE).heightOfString(text, { width }),
  );
  return { sizes, height: Math.max(minHeight, Math.ceil(Math.max(0, ...heights)) + 2 * PADDING) };
}
