import { describe, expect, it } from 'vitest';
import {
  combineSums,
  postcodeLevels,
  residualSums,
  type Place,
  type PostcodeMonth,
  type ResidualSum,
} from './postcode-effects.js';

const fit = {
  beta: [0.5],
  months: [
    { month: 100, n: 10, effect: 2 },
    { month: 101, n: 10, effect: 3 },
  ],
};

const row = (
  postcode: string,
  month: number,
  n: number,
  sumY: number,
  sumX: number,
): PostcodeMonth => ({
  postcode,
  month,
  n,
  sumY,
  sumX: [sumX],
});

describe('residualSums', () => {
  it('sums residuals around the model, from months before the date only', () => {
    const rows = [
      // 4 offers, Σy 9, Σx 2: residual 9 − 4·2 − 0.5·2 = 0
      row('A', 100, 4, 9, 2),
      // 2 offers, Σy 7, Σx 0: residual 7 − 2·3 = 1
      row('A', 101, 2, 7, 0),
      // 3 offers, Σy 4.5, Σx 1: residual 4.5 − 3·2 − 0.5 = −2
      row('B', 100, 3, 4.5, 1),
      // Month 102 is the valuation month: ignored.
      row('B', 102, 50, 500, 0),
      // No month effect for month 99: ignored.
      row('C', 99, 5, 50, 0),
    ];
    const sums = residualSums(rows, fit, 102);
    expect(sums.get('A')?.residual).toBeCloseTo(1, 12);
    expect(sums.get('A')?.n).toBe(6);
    expect(sums.get('B')?.residual).toBeCloseTo(-2, 12);
    expect(sums.get('B')?.n).toBe(3);
    expect(sums.has('C')).toBe(false);
    expect(residualSums(rows, fit, 101).get('A')).toEqual({ residual: 0, n: 4 });
  });
});

describe('combineSums', () => {
  it("adds the other deal type's residuals and offers at their weight", () => {
    const own = new Map([['A', { residual: 1, n: 4 }]]);
    const other = new Map([
      ['A', { residual: 2, n: 2 }],
      ['B', { residual: -1, n: 6 }],
    ]);
    const sums = combineSums(own, other, 0.5);
    expect(sums.get('A')).toEqual({ residual: 2, n: 5 });
    expect(sums.get('B')).toEqual({ residual: -0.5, n: 3 });
    expect(own.get('A')).toEqual({ residual: 1, n: 4 });
  });
});

describe('postcodeLevels', () => {
  // A and B 1 km apart, C 50 km away; D has a place but no offers; E neither.
  const places = new Map<string, Place>([
    ['A', { latitude: 48, longitude: 16 }],
    ['B', { latitude: 48.009, longitude: 16 }],
    ['C', { latitude: 48.45, longitude: 16 }],
    ['D', { latitude: 48.0045, longitude: 16 }],
  ]);
  const sums = new Map<string, ResidualSum>([
    ['A', { residual: 2, n: 10 }],
    ['B', { residual: 4, n: 10 }],
    ['C', { residual: -30, n: 30 }],
  ]);
  const options = { shrink: 4, bandwidthMeters: 3000, neighbourShrink: 5 };

  it("shrinks a postcode's mean residual towards its neighbours' level (by hand)", () => {
    const level = postcodeLevels(sums, places, options);
    // B is 1.0 km from A: kernel exp(−½ (1000.8 / 3000)²); C is beyond the cut.
    const k = Math.exp(-0.5 * (1000.8 / 3000) ** 2);
    const neighbours = (k * 4) / (k * 10 + 5);
    expect(level('A')).toBeCloseTo((2 + 4 * neighbours) / (10 + 4), 3);
    // Without neighbours (C): towards 0, the region's level.
    expect(level('C')).toBeCloseTo(-30 / 34, 10);
  });

  it("gives a postcode without offers its neighbours' level, and 0 without a place", () => {
    const level = postcodeLevels(sums, places, options);
    // D lies halfway between A (mean 0.2) and B (mean 0.4).
    expect(level('D')).toBeGreaterThan(0.2 * (20 / 25));
    expect(level('D')).toBeLessThan(0.4);
    expect(level('E')).toBe(0);
    expect(level(null)).toBe(0);
  });

  it('is the plain shrunken mean when no postcode has a place', () => {
    const level = postcodeLevels(sums, new Map(), options);
    expect(level('A')).toBeCloseTo(2 / 14, 12);
    expect(level('B')).toBeCloseTo(4 / 14, 12);
  });
});
