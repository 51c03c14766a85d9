import PDFDocument from 'pdfkit';
import { layOutBidirectional, type BidiFont } from './bidi-layout.js';
import { reportFonts } from './fonts.js';
import { headerLayout } from './table-header.js';
import { printableText } from './printable.js';

/** Colours and measures of every report page (points; A4). */
export const STYLE = {
  navy: '#1f3a5f',
  teal: '#2e7d9a',
  orange: '#e07a1f',
  grey: '#6b7280',
  light: '#eef2f6',
  rule: '#cfd6de',
  text: '#1f2328',
  margin: 50,
  width: 595.28,
  height: 841.89,
  footer: 30,
} as const;

export const CONTENT_WIDTH = STYLE.width - 2 * STYLE.margin;
/** The lowest y content may reach before a new page is needed. */
export const CONTENT_BOTTOM = STYLE.height - STYLE.margin - STYLE.footer;

export type Doc = PDFKit.PDFDocument;

/** A new A4 document with the report fonts registered as `regular` and `bold`. */
export function newDocument(title: string, author: string): Doc {
  const doc = new PDFDocument({
    size: 'A4',
    margin: STYLE.margin,
    bufferPages: true,
    autoFirstPage: false,
    info: { Title: title, Author: author, Creator: 'propdata' },
    // Reports are documents to navigate: show the outline when opened.
    displayTitle: true,
    // No default font: pdfkit would parse Helvetica's metrics for every document, unused.
    font: null as unknown as string,
  });
  const fonts = reportFonts();
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  reuseParsedFonts(doc);
  printableOnly(doc);
  doc.font('regular');
  return doc;
}

/**
 * Every text the document draws or measures leaves out what the typefaces cannot draw
 * (printable.ts: emoji, CJK), so that titles, addresses, names and captions from users and
 * imported data never print as empty boxes, and a text is measured as it is drawn. Here, where
 * every text passes, rather than in the model: only what is drawn is looked at (a model holds
 * a date for every offer a report counts).
 */
function printableOnly(doc: Doc): void {
  const text = doc.text.bind(doc) as (text: unknown, ...rest: unknown[]) => Doc;
  const width = doc.widthOfString.bind(doc);
  const height = doc.heightOfString.bind(doc);
  const clean = (value: unknown) =>
    typeof value === 'string' ? printableText(value, drawable) : value;
  Object.assign(doc, {
    text: (value: unknown, ...rest: unknown[]) => text(clean(value), ...rest),
    widthOfString: (value: string, options?: PDFKit.Mixins.TextOptions) =>
      width(printableText(value, drawable), options),
    heightOfString: (value: string, options?: PDFKit.Mixins.TextOptions) =>
      height(printableText(value, drawable), options),
  });
}

type LayoutCache = Record<string, unknown>;
type EmbeddedFont = { name: string; layoutCache?: LayoutCache };
type MakeFont = new (doc: Doc, font: object, id: string) => EmbeddedFont;

/** pdfkit's inner font state, as of the pinned version: what `reuseParsedFonts` fills in. */
interface FontInternals {
  _font: EmbeddedFont & { font: ParsedFont; constructor: MakeFont };
  _fontCount: number;
  _fontFamilies: Record<string, unknown>;
}

/** A parsed typeface (fontkit's Font), as far as the reports ask it. */
type ParsedFont = object & { hasGlyphForCodePoint(codePoint: number): boolean };

let parsed: { make: MakeFont; regular: ParsedFont; bold: ParsedFont } | undefined;

/**
 * Whether both report typefaces draw `codePoint` (false before the first document is made).
 * What they lack (emoji, CJK) would print as empty boxes.
 */
export function drawable(codePoint: number): boolean {
  return (
    parsed !== undefined &&
    parsed.regular.hasGlyphForCodePoint(codePoint) &&
    parsed.bold.hasGlyphForCodePoint(codePoint)
  );
}

/** Words laid out per typeface, shared by the worker's documents; renewed when this large. */
const LAYOUT_CACHE_WORDS = 50_000;
const layouts: Record<'regular' | 'bold', { words: LayoutCache }> = {
  regular: { words: Object.create(null) as LayoutCache },
  bold: { words: Object.create(null) as LayoutCache },
};

/**
 * pdfkit lays out (shapes) each word with fontkit once per document and keeps the result in the
 * document's font; the result depends on the typeface and the word only, so the worker's
 * documents share one such cache per typeface (shaping was a fifth of a report's render time).
 * A line holding right-to-left script is laid out by its own rule (bidi-layout.ts).
 */
function sharedLayouts(font: EmbeddedFont, key: 'regular' | 'bold'): void {
  const shared = layouts[key];
  if (Object.keys(shared.words).length > LAYOUT_CACHE_WORDS) {
    shared.words = Object.create(null) as LayoutCache;
  }
  font.layoutCache = shared.words;
  layOutBidirectional(font as unknown as BidiFont);
}

/**
 * pdfkit parses a registered TTF anew in every document (fontkit.create), and fontkit then
 * decodes each glyph again: measured, the largest part of a report's CPU after the images. The
 * parsed fonts of the first document are kept and handed to every later one; each document still
 * embeds its own subset of the glyphs it uses.
 */
function reuseParsedFonts(doc: Doc): void {
  const inner = doc as unknown as FontInternals;
  if (!parsed) {
    doc.font('regular');
    const regular = inner._font;
    sharedLayouts(regular, 'regular');
    doc.font('bold');
    sharedLayouts(inner._font, 'bold');
    parsed = { make: regular.constructor, regular: regular.font, bold: inner._font.font };
    return;
  }
  for (const [key, font] of [
    ['regular', parsed.regular],
    ['bold', parsed.bold],
  ] as const) {
    const embedded = new parsed.make(doc, font, `F${String(++inner._fontCount)}`);
    sharedLayouts(embedded, key);
    inner._fontFamilies[key] = embedded;
    inner._fontFamilies[embedded.name] = embedded;
  }
}

/** Ensures `height` points fit below the cursor, else starts a new page. */
export function room(doc: Doc, height: number): void {
  if (doc.y + height > CONTENT_BOTTOM) nextPage(doc);
}

/** Continues on a new page, at its top. */
export function nextPage(doc: Doc): void {
  doc.addPage();
  doc.y = STYLE.margin;
}

/** A section's first page: a coloured heading band and its outline entry (returned). */
export function sectionPage(doc: Doc, heading: string): PDFKit.PDFOutline {
  doc.addPage();
  const entry = doc.outline.addItem(heading);
  doc.rect(0, 0, STYLE.width, 90).fill(STYLE.navy);
  doc.rect(0, 90, STYLE.width, 4).fill(STYLE.teal);
  doc
    .font('bold')
    .fontSize(22)
    .fillColor('#ffffff')
    .text(heading, STYLE.margin, 38, { width: CONTENT_WIDTH, lineBreak: false });
  doc.x = STYLE.margin;
  doc.y = 120;
  return entry;
}

// A band's space above it, its height, and the space below it (its 3 pt rule included).
const BAND = { above: 12, height: 32, below: 16 } as const;
const BAND_SPACE = BAND.above + BAND.height + BAND.below;

/**
 * Whether a section of one sentence, `statement`, fits below the one before on its page: its
 * band and the sentence as the page's width sets it.
 */
export function bandFits(doc: Doc, statement: string): boolean {
  return doc.y + BAND_SPACE + paragraphHeight(doc, statement) <= CONTENT_BOTTOM;
}

/** A section that follows on the page of the one before: a band across the text and its
 * outline entry (returned). */
export function sectionBand(doc: Doc, heading: string): PDFKit.PDFOutline {
  const top = doc.y + BAND.above;
  const entry = doc.outline.addItem(heading);
  doc.rect(STYLE.margin, top, CONTENT_WIDTH, BAND.height).fill(STYLE.navy);
  doc.rect(STYLE.margin, top + BAND.height, CONTENT_WIDTH, 3).fill(STYLE.teal);
  doc
    .font('bold')
    .fontSize(14)
    .fillColor('#ffffff')
    .text(heading, STYLE.margin + 12, top + 10, {
      width: CONTENT_WIDTH - 24,
      lineBreak: false,
      ellipsis: true,
    });
  doc.x = STYLE.margin;
  doc.y = top + BAND.height + BAND.below;
  return entry;
}

/** About the height of a subheading, its rule and the space around them. */
export const SUBHEADING_HEIGHT = 36;

/** A sub-heading within a section, kept on one page with the first `keep` points after it. */
export function subheading(doc: Doc, text: string, keep = 60): void {
  room(doc, keep + 30);
  doc.moveDown(0.6);
  doc.font('bold').fontSize(12.5).fillColor(STYLE.navy).text(text, STYLE.margin, doc.y, {
    width: CONTENT_WIDTH,
  });
  const y = doc.y + 3;
  doc
    .moveTo(STYLE.margin, y)
    .lineTo(STYLE.margin + CONTENT_WIDTH, y)
    .lineWidth(0.6)
    .strokeColor(STYLE.rule)
    .stroke();
  doc.y = y + 8;
}

/** A paragraph of body text. */
/** The height `paragraph` sets `text` in. */
function paragraphHeight(doc: Doc, text: string, size = 10): number {
  return doc
    .font('regular')
    .fontSize(size)
    .heightOfString(text, { width: CONTENT_WIDTH, lineGap: 2 });
}

/** Whether `paragraph`s of `texts`, one after the other, all fit on the rest of this page. */
export function paragraphsFit(doc: Doc, texts: string[]): boolean {
  doc.font('regular').fontSize(10);
  // Each paragraph is followed by half a line (moveDown(0.5)).
  const gap = doc.currentLineHeight(true) * 0.5;
  const height = texts.reduce((sum, text) => sum + paragraphHeight(doc, text) + gap, 0);
  return doc.y + height - gap <= CONTENT_BOTTOM;
}

export function paragraph(doc: Doc, text: string, options: { color?: string; size?: number } = {}) {
  // Two lines at least on this page (a paragraph of one line: that line).
  room(doc, Math.min(30, paragraphHeight(doc, text, options.size)));
  doc
    .font('regular')
    .fontSize(options.size ?? 10)
    .fillColor(options.color ?? STYLE.text)
    .text(text, STYLE.margin, doc.y, { width: CONTENT_WIDTH, lineGap: 2 });
  doc.moveDown(0.5);
}

const FACT_ROW = 22;
const FACTS_GAP = 10;
const panelHeight = (pairs: number): number => Math.ceil(pairs / 2) * FACT_ROW + 12;
/** The room a facts panel takes: two pairs a row, and the gap below it. */
export const factsHeight = (pairs: number): number => panelHeight(pairs) + FACTS_GAP;

/** Label–value pairs in two columns of a light panel. */
export function facts(doc: Doc, pairs: [string, string][]): void {
  const rowHeight = FACT_ROW;
  const height = panelHeight(pairs.length);
  room(doc, height);
  const top = doc.y;
  doc.rect(STYLE.margin, top, CONTENT_WIDTH, height).fill(STYLE.light);
  const half = CONTENT_WIDTH / 2;
  pairs.forEach(([label, value], i) => {
    const x = STYLE.margin + 12 + (i % 2) * half;
    const y = top + 8 + Math.floor(i / 2) * rowHeight;
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(STYLE.grey)
      .text(capitals(label), x, y, {
        width: half - 24,
        lineBreak: false,
      });
    doc.font('bold').fontSize(10.5).fillColor(STYLE.text);
    // Cut to one line here: pdfkit still wraps a value longer than its width onto a second
    // line, below the panel's row.
    doc.text(oneLine(doc, value, half - 24), x, y + 9, { width: half - 24, lineBreak: false });
  });
  doc.x = STYLE.margin;
  doc.y = top + height + FACTS_GAP;
}

/**
 * Writes `text` in `font` at `(x, y)` at the largest of `sizes` (largest first) at which it fits
 * `width` × `height`, at the smallest cut with an ellipsis where it still does not; returns the
 * height it took. A dossier's title may be 200 characters, or one word as long.
 */
export function fittedText(
  doc: Doc,
  text: string,
  at: { x: number; y: number; width: number; height: number },
  style: { font: 'regular' | 'bold'; sizes: readonly number[]; lineGap: number },
): number {
  const options = { width: at.width, lineGap: style.lineGap };
  doc.font(style.font);
  const size =
    style.sizes.find((s) => doc.fontSize(s).heightOfString(text, options) <= at.height) ??
    style.sizes[style.sizes.length - 1] ??
    10;
  doc.fontSize(size);
  const height = Math.min(doc.heightOfString(text, options), at.height);
  doc.text(text, at.x, at.y, { ...options, height: at.height, ellipsis: true });
  return height;
}

/** `text` in the current font, shortened with an ellipsis to fit `width` on one line. */
export function oneLine(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

export interface Column {
  header: string;
  width: number;
  align?: 'left' | 'right';
}

/** A table with a shaded header, repeated on each page it runs over. */
export function table(doc: Doc, columns: Column[], rows: string[][]): void {
  const rowHeight = 17;
  const total = columns.reduce((sum, c) => sum + c.width, 0);
  const scale = CONTENT_WIDTH / total;
  /** One line of cells at `y`, each cut to its column's width. */
  const cells = (texts: string[], y: number, font: string, size: number, color: string) => {
    let x = STYLE.margin;
    columns.forEach((c, i) => {
      const w = c.width * scale;
      doc.font(font).fontSize(size).fillColor(color);
      // A row is one line: a longer text would run into the row below (pdfkit wraps a text
      // wider than its width whatever its options), so it is cut with an ellipsis.
      doc.text(oneLine(doc, texts[i] ?? '', w - 8), x + 4, y + 5, {
        width: w - 8,
        align: c.align ?? 'left',
        lineBreak: false,
      });
      x += w;
    });
  };
  // Headers wrap between words onto as many lines as the longest needs (table-header.ts).
  const header = () => {
    const widths = columns.map((c) => c.width * scale - 8);
    const layout = headerLayout(
      doc,
      columns.map((c, i) => ({ text: c.header, width: widths[i] ?? 0 })),
      rowHeight,
    );
    room(doc, layout.height + rowHeight * 2);
    const y = doc.y;
    doc.rect(STYLE.margin, y, CONTENT_WIDTH, layout.height).fill(STYLE.navy);
    let x = STYLE.margin;
    columns.forEach((c, i) => {
      doc
        .font('bold')
        .fontSize(layout.sizes[i] ?? 8)
        .fillColor('#ffffff')
        .text(c.header, x + 4, y + 5, { width: widths[i] ?? 0, align: c.align ?? 'left' });
      x += c.width * scale;
    });
    doc.y = y + layout.height;
  };
  header();
  rows.forEach((row, r) => {
    if (doc.y + rowHeight > CONTENT_BOTTOM) {
      doc.addPage();
      doc.y = STYLE.margin;
      header();
    }
    const y = doc.y;
    if (r % 2 === 1) doc.rect(STYLE.margin, y, CONTENT_WIDTH, rowHeight).fill(STYLE.light);
    cells(row, y, 'regular', 8.5, STYLE.text);
    doc.y = y + rowHeight;
  });
  doc.x = STYLE.margin;
  doc.moveDown(0.8);
}

/** A unit of measure as a word of its own: "500 m", "per m²", "2 km", "5 min". */
const UNIT = /(?<!\p{L})(km²|m²|km|m|min|ha)(?!\p{L})/u;

/**
 * A label in capitals, as the reports set labels, its units as written: in capitals "500 m"
 * would read as 500 megametres ("500 M") and "m²" as "M²".
 */
export function capitals(text: string): string {
  return text
    .split(UNIT)
    .map((part, i) => (i % 2 === 1 ? part : part.toUpperCase()))
    .join('');
}
