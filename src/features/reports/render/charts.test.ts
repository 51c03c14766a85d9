import { describe, expect, it } from 'vitest';
import { roundMultiple } from './charts.js';

describe('roundMultiple', () => {
  it('is the smallest round multiple of the step at or above the value', () => {
    // 500 is round but not a multiple of 200: labels at every 500 would miss the bin edges.
    expect(roundMultiple(200, 333)).toBe(1000);
    expect(roundMultiple(500, 1200)).toBe(2000);
    expect(roundMultiple(0.5, 1.3)).toBe(2);
    expect(roundMultiple(1, 1)).toBe(1);
    expect(roundMultiple(2, 0.5)).toBe(2);
  });

  it('is a multiple of the step and 1, 2 or 5 times a power of ten, for any round step', () => {
    for (const step of [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]) {
      for (const value of [0.3, 1, 7, 45, 333, 999, 4321, 25000]) {
        const found = roundMultiple(step, value);
        expect(found).toBeGreaterThanOrEqual(Math.max(value, step) - 1e-9);
        const ratio = found / step;
        expect(Math.abs(ratio - Math.round(ratio))).toBeLessThan(1e-9);
        const mantissa = found / 10 ** Math.floor(Math.log10(found) + 1e-9);
        expect(
          [1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-9),
          String(found),
        ).toBe(true);
      }
    }
  });
});
