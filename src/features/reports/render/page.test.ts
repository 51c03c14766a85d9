import { describe, expect, it } from 'vitest';
import { say } from '../messages.js';
import {
  bandFits,
  capitals,
  CONTENT_BOTTOM,
  newDocument,
  paragraph,
  sectionBand,
  STYLE,
} from './page.js';

const pages = (doc: ReturnType<typeof newDocument>) => doc.bufferedPageRange().count;

/** The lowest point (to 0.1 pt) from which `statement` still fits under a band. */
function lowestFit(statement: string): number {
  const doc = newDocument('t', 'o');
  doc.addPage();
  let fits: number = STYLE.margin;
  let fails = CONTENT_BOTTOM;
  while (fails - fits > 0.1) {
    const y = (fits + fails) / 2;
    doc.y = y;
    if (bandFits(doc, statement)) fits = y;
    else fails = y;
  }
  return fits;
}

describe('a section of one sentence following on the page before', () => {
  const short = say('en', 'noAttachments');
  const long = `${say('en', 'noData')} `.repeat(8).trim();

  it.each([
    ['one line', short],
    ['several lines', long],
  ])('fits wherever its band and its sentence (%s) fit, and only there', (_, statement) => {
    const y = lowestFit(statement);
    const doc = newDocument('t', 'o');
    doc.addPage();
    doc.y = y;
    sectionBand(doc, 'Floor plans');
    paragraph(doc, statement);
    // Band and sentence stayed on the page, the sentence above the footer's space.
    expect(pages(doc)).toBe(1);
    expect(doc.y).toBeLessThanOrEqual(CONTENT_BOTTOM + 10);
  });

  it('needs only the room its sentence takes: a one-line sentence fits lower than a long one', () => {
    const one = lowestFit(short);
    const several = lowestFit(long);
    // One line of 10 pt text and the band: about 80 pt above the footer, not a fixed 100.
    expect(CONTENT_BOTTOM - one).toBeLessThan(85);
    expect(CONTENT_BOTTOM - one).toBeGreaterThan(66);
    expect(several).toBeLessThan(one - 20);
  });

  it('a paragraph of one line needs only that line on the page; a longer one two lines', () => {
    const doc = newDocument('t', 'o');
    doc.addPage();
    doc.y = CONTENT_BOTTOM - 16;
    paragraph(doc, short);
    expect(pages(doc)).toBe(1);
    doc.y = CONTENT_BOTTOM - 16;
    paragraph(doc, long);
    expect(pages(doc)).toBe(2);
  });
});

describe('labels in capitals', () => {
  it('keep their units as written', () => {
    expect(capitals('Stops within 500 m')).toBe('STOPS WITHIN 500 m');
    expect(capitals('Price per m²')).toBe('PRICE PER m²');
    expect(capitals('Arrêts à moins de 500 m')).toBe('ARRÊTS À MOINS DE 500 m');
    expect(capitals('Within 2 km, 5 min')).toBe('WITHIN 2 km, 5 min');
    // Letters of words are not units: "mini", "Zimmer", "Maisonnette".
    expect(capitals('mini Zimmer m Maisonnette')).toBe('MINI ZIMMER m MAISONNETTE');
    expect(capitals('Living area')).toBe('LIVING AREA');
  });
});
