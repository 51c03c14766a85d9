import bidiModule from 'bidi-js';

// The package is CommonJS exporting the factory itself, typed as an ES module's default export.
const bidiFactory = bidiModule as unknown as typeof bidiModule.default;

/** The Unicode bidirectional algorithm (UAX #9). */
export const bidi = bidiFactory();

/**
 * Characters of the right-to-left scripts the report typefaces draw (Hebrew, Arabic and its
 * presentation forms; Syriac, Thaana and N'Ko are in the range but not in the typefaces, so
 * they never reach a page). A text without any is laid out exactly as pdfkit does.
 */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;

/** Whether `text` holds a character of a right-to-left script. */
export function hasRightToLeft(text: string): boolean {
  return RIGHT_TO_LEFT.test(text);
}

/** A piece of a line in display order: the text of logical positions `start`…`end − 1`. */
export interface VisualRun {
  /** The run's characters in logical order, mirrored (`(` → `)`) where right to left. */
  text: string;
  start: number;
  end: number;
  /** Drawn right to left: its characters appear in reverse order. */
  rightToLeft: boolean;
}

/**
 * One line of text cut into runs in the order they appear from left to right (the Unicode
 * bidirectional algorithm, UAX #9, rules L1–L2 included; the paragraph's direction is its first
 * strong character's). Each run keeps its own characters in logical order: the shaper lays an
 * Arabic word out from it (joining forms depend on the logical neighbours) and reverses it.
 */
export function visualRuns(text: string): VisualRun[] {
  // A wrapped line ends in the space it broke at: drawn at the right end, where a left-aligned
  // line's space is unseen, not at the left end of a right-to-left one (rule L1), where it
  // would indent the line.
  const line = text.trimEnd();
  const runs = reorderedRuns(line);
  if (line.length < text.length) {
    runs.push({
      text: text.slice(line.length),
      start: line.length,
      end: text.length,
      rightToLeft: false,
    });
  }
  return runs;
}

function reorderedRuns(line: string): VisualRun[] {
  const levels = bidi.getEmbeddingLevels(line);
  const order = bidi.getReorderedIndices(line, levels);
  const mirrored = bidi.getMirroredCharactersMap(line, levels.levels);
  const runs: VisualRun[] = [];
  let i = 0;
  while (i < order.length) {
    const first = order[i] ?? 0;
    const next = order[i + 1];
    // Two neighbours in display order that are each other's logical neighbours, the later one
    // first, belong to a right-to-left run; a single character's level says.
    const rightToLeft =
      next === undefined || Math.abs(next - first) !== 1
        ? (levels.levels[first] ?? 0) % 2 === 1
        : next === first - 1;
    const step = rightToLeft ? -1 : 1;
    let last = first;
    let j = i + 1;
    while (j < order.length && order[j] === last + step) last = order[j++] ?? last;
    const start = Math.min(first, last);
    const end = Math.max(first, last) + 1;
    let text = '';
    for (let k = start; k < end; k++) text += mirrored.get(k) ?? line[k] ?? '';
    runs.push({ text, start, end, rightToLeft });
    i = j;
  }
  return runs;
}

/** pdfkit's laid-out text: glyphs and their positions, in thousandths of the font size. */
export interface LaidOut {
  glyphs: { advanceWidth: number }[];
  positions: Record<string, number>[];
  advanceWidth: number;
}

/** A fontkit typeface, as far as laying out a run asks it. */
interface Shaper {
  layout(
    text: string,
    features: unknown,
    script: undefined,
    language: undefined,
    direction: 'ltr' | 'rtl',
  ): { glyphs: { advanceWidth: number }[]; positions: object[] };
}

/** pdfkit's embedded font, as of the pinned version: its typeface, scale and layout. */
export interface BidiFont {
  font: Shaper;
  scale: number;
  layout(text: string, features?: unknown, onlyWidth?: boolean): LaidOut;
}

/**
 * pdfkit lays a line out word by word and left to right, and fontkit reverses each word of a
 * right-to-left script by itself: the letters of a Hebrew or Arabic word came out right, but a
 * phrase's words in reverse order, each with its space on the wrong side, and numbers and Latin
 * words inside it out of place. A line holding such a script is laid out here by runs in
 * display order instead; its width, which pdfkit measures word by word to break lines, is the
 * same either way. Every other text keeps pdfkit's layout and its cache of words.
 */
export function layOutBidirectional(font: BidiFont): void {
  const own = font.layout.bind(font);
  font.layout = (text, features, onlyWidth) =>
    onlyWidth === true || !hasRightToLeft(text)
      ? own(text, features, onlyWidth)
      : byRuns(font, text, features);
}

function byRuns(font: BidiFont, text: string, features: unknown): LaidOut {
  const out: LaidOut = { glyphs: [], positions: [], advanceWidth: 0 };
  for (const run of visualRuns(text)) {
    const laid = font.font.layout(
      run.text,
      features ?? [],
      undefined,
      undefined,
      run.rightToLeft ? 'rtl' : 'ltr',
    );
    laid.glyphs.forEach((glyph, i) => {
      // In the font's units; pdfkit's own layout scales them so (its `layoutRun`).
      const position = { ...(laid.positions[i] as Record<string, number>) };
      for (const key of Object.keys(position)) position[key] = (position[key] ?? 0) * font.scale;
      position.advanceWidth = glyph.advanceWidth * font.scale;
      out.glyphs.push(glyph);
      out.positions.push(position);
      out.advanceWidth += position.xAdvance ?? 0;
    });
  }
  return out;
}
