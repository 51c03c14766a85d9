import { describe, expect, it } from 'vitest';
import { histogram, roundMultiple } from './charts.js';
import { CONTENT_WIDTH, newDocument, STYLE } from './page.js';

describe('roundMultiple', () => {
  it('is the smallest round multiple of the step at or above the value', () => {
    // 500 is round but not a multiple of 200: labels at every 500 would miss the bin edges;
    // twice the step is the other choice.
    expect(roundMultiple(200, 333)).toBe(400);
    expect(roundMultiple(200, 401)).toBe(1000);
    expect(roundMultiple(2000, 16000 / 6)).toBe(4000);
    expect(roundMultiple(500, 1200)).toBe(2000);
    expect(roundMultiple(0.5, 1.3)).toBe(2);
    expect(roundMultiple(1, 1)).toBe(1);
    expect(roundMultiple(2, 0.5)).toBe(2);
  });

  it('is a multiple of the step, 1, 2 or 5 times a power of ten or twice the step, for any round step', () => {
    for (const step of [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]) {
      for (const value of [0.3, 1, 7, 45, 333, 999, 4321, 25000]) {
        const found = roundMultiple(step, value);
        expect(found).toBeGreaterThanOrEqual(Math.max(value, step) - 1e-9);
        const ratio = found / step;
        expect(Math.abs(ratio - Math.round(ratio))).toBeLessThan(1e-9);
        const mantissa = found / 10 ** Math.floor(Math.log10(found) + 1e-9);
        expect(
          [1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-9) || Math.abs(found - 2 * step) < 1e-9,
          String(found),
        ).toBe(true);
        // None smaller qualifies: no round multiple of the step between it and the value, and
        // twice the step is below the value or not smaller.
        for (let power = 10 ** Math.floor(Math.log10(step) + 1e-9); power < found; power *= 10) {
          for (const m of [1, 2, 5]) {
            const smaller = m * power;
            const ratio = smaller / step;
            const multiple = Math.abs(ratio - Math.round(ratio)) < 1e-9;
            if (smaller < found - 1e-9 && multiple) expect(smaller).toBeLessThan(value - 1e-9);
          }
        }
        if (2 * step < found - 1e-9) expect(2 * step).toBeLessThan(value - 1e-9);
      }
    }
  });
});

/** The price labels a histogram of `values` prints under its bars, in order, and where each ends. */
function printedLabels(values: number[]): { label: string; right: number }[] {
  const doc = newDocument('t', 'o');
  doc.addPage();
  const printed: { label: string; right: number }[] = [];
  const text = doc.text.bind(doc);
  doc.text = ((s: string, x: number, y: number, options: PDFKit.Mixins.TextOptions) => {
    const box = options.width ?? 0;
    const width = doc.widthOfString(s);
    const right = options.align === 'right' ? x + box : x + (box + width) / 2;
    printed.push({ label: s, right });
    return text(s, x, y, options);
  }) as typeof doc.text;
  histogram(doc, values, undefined, (v) => `P${String(v)}`);
  return printed.filter((p) => p.label.startsWith('P'));
}

const priceLabels = (values: number[]) => printedLabels(values).map((p) => p.label);

describe('histogram', () => {
  it('labels prices at least every other bin edge: eight bins of 2,000 get four labels or more', () => {
    // 12,500 … 27,500: bins of 2,000 from 12,000 to 28,000.
    const labels = priceLabels([12_500, 15_000, 19_000, 21_000, 27_500]);
    expect(labels).toEqual(['P12000', 'P16000', 'P20000', 'P24000', 'P28000']);
  });

  it('ends the last price label within the page’s margin', () => {
    const labels = printedLabels([12_500, 15_000, 19_000, 21_000, 27_500]);
    expect(labels.at(-1)?.label).toBe('P28000');
    for (const { label, right } of labels) {
      expect(right, label).toBeLessThanOrEqual(STYLE.margin + CONTENT_WIDTH + 1e-6);
    }
  });

  it('draws one offer in bins of about 2% of its price, not of 10', () => {
    expect(priceLabels([3_104])).toEqual(['P3100', 'P3200']);
  });
});
