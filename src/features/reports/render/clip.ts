import { CONTENT_WIDTH, type Column, type Doc } from './page.js';

/**
 * `text` shortened with an ellipsis to fit column `index` of a table of `columns` in the
 * table's body font: a table row is one line, and a longer name would run into the next row.
 */
export function clip(doc: Doc, columns: Column[], index: number, text: string): string {
  const total = columns.reduce((sum, c) => sum + c.width, 0);
  // The table's cell padding (4 pt each side) and body font (regular, 8.5 pt).
  const width = (CONTENT_WIDTH * (columns[index]?.width ?? 0)) / total - 8;
  doc.font('regular').fontSize(8.5);
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
