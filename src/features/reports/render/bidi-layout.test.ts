import { describe, expect, it } from 'vitest';
import { bidi, visualRuns, type BidiFont } from './bidi-layout.js';
import { newDocument, type Doc } from './page.js';

interface Embedded extends BidiFont {
  encode(text: string): [string[], Record<string, number>[]];
  widthOfString(text: string, size: number): number;
  unicode: number[][];
  subset: { glyphs: number[] };
  font: BidiFont['font'] & { getGlyph(id: number): { name: string } };
}

/** The name of the typeface's glyph a PDF glyph id (of the document's subset) stands for. */
function glyphName(font: Embedded, gid: string): string {
  return font.font.getGlyph(font.subset.glyphs[parseInt(gid, 16)] ?? 0).name;
}

function fontOf(doc: Doc, name: 'regular' | 'bold'): Embedded {
  doc.font(name);
  return (doc as unknown as { _font: Embedded })._font;
}

/** The characters of the glyphs a line is drawn with, left to right, as the PDF maps them. */
function drawn(font: Embedded, text: string): string {
  const [hex] = font.encode(text);
  return hex
    .map((gid) => String.fromCodePoint(...(font.unicode[parseInt(gid, 16)] ?? [])))
    .join('');
}

describe('visualRuns', () => {
  it('orders a left-to-right line holding a Hebrew phrase and a number that follows it', () => {
    const runs = visualRuns('Haus שלום 12');
    expect(runs.map((r) => [r.text, r.rightToLeft])).toEqual([
      ['Haus ', false],
      ['12', false],
      ['שלום ', true],
    ]);
  });

  it('orders a right-to-left line, mirroring its brackets', () => {
    const runs = visualRuns('שלום (Wien) 2024');
    expect(runs.map((r) => [r.text, r.rightToLeft])).toEqual([
      ['2024', false],
      ['( ', true],
      ['Wien', false],
      ['שלום )', true],
    ]);
    // The brackets are swapped, since they are drawn right to left.
    expect(
      runs.map((r) => (r.rightToLeft ? Array.from(r.text).reverse().join('') : r.text)).join(''),
    ).toBe('2024 (Wien) םולש');
  });

  it('draws the space a right-to-left line broke at on its right, where it is not seen', () => {
    expect(visualRuns('שלום עולם ').map((r) => [r.text, r.rightToLeft])).toEqual([
      ['שלום עולם', true],
      [' ', false],
    ]);
  });

  it('keeps a left-to-right line as one run', () => {
    expect(visualRuns('Wohnung Graben 12, Wien')).toEqual([
      { text: 'Wohnung Graben 12, Wien', start: 0, end: 23, rightToLeft: false },
    ]);
  });
});

describe('right-to-left text in a report', () => {
  const doc = newDocument('t', 'o');
  const regular = fontOf(doc, 'regular');
  const bold = fontOf(doc, 'bold');

  it('draws the glyphs of mixed lines in the order the bidirectional algorithm displays them', () => {
    for (const line of [
      'Haus שלום עולם 12',
      'שלום עולם (Wien) 2024',
      'Dossier: דירה ברחוב הרצל, 3 חדרים',
      'מחיר: 450,000 €',
    ]) {
      const reference = bidi.getReorderedString(line, bidi.getEmbeddingLevels(line));
      expect(drawn(regular, line), line).toBe(reference);
      expect(drawn(bold, line), line).toBe(reference);
    }
    // The reference itself, for one line: the words right to left, the number where it belongs;
    // in a later document too (its fonts reuse the first one's parsed typefaces).
    expect(drawn(regular, 'Haus שלום עולם 12')).toBe('Haus 12 םלוע םולש');
    const later = fontOf(newDocument('t', 'o'), 'bold');
    expect(drawn(later, 'Haus שלום עולם 12')).toBe('Haus 12 םלוע םולש');
  });

  it('shapes Arabic words by their logical neighbours and reverses them', () => {
    // بيت (house): beh initial, yeh medial, teh final; drawn left to right: teh, yeh, beh.
    const names = (line: string) => regular.encode(line)[0].map((gid) => glyphName(regular, gid));
    expect(drawn(regular, 'Haus بيت')).toBe('Haus تيب');
    // Final teh, medial yeh, initial beh (isolated: uniFE95, uniFEF1, uniFE8F).
    expect(names('Haus بيت').slice(-3)).toEqual(['uniFE96', 'uniFEF4', 'uniFE91']);
    // Two words right to left, each joined: بيت كبير (a big house).
    expect(drawn(regular, 'بيت كبير')).toBe('ريبك تيب');
    expect(names('بيت كبير')).toEqual([
      'uniFEAE',
      'uniFEF4',
      'uniFE92',
      'uniFEDB',
      'space',
      'uniFE96',
      'uniFEF4',
      'uniFE91',
    ]);
  });

  it('measures a line as wide either way, and leaves other texts to pdfkit', () => {
    const line = 'Haus שלום עולם 12';
    const laid = regular.layout(line);
    expect(laid.advanceWidth).toBeCloseTo(regular.layout(line, undefined, true).advanceWidth, 9);
    expect(drawn(regular, 'Wohnung (Graben) 12')).toBe('Wohnung (Graben) 12');
  });
});
