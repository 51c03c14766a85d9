import { describe, expect, it } from 'vitest';
import {
  combineSums,
  postcodeLevels,
  residualMap,
  type Place,
  type ResidualSum,
} from './postcode-effects.js';

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

describe('residualMap', () => {
  it('keys the residual sums by postcode', () => {
    const map = residualMap([
      { postcode: 'A', residual: 1.5, n: 3 },
      { postcode: 'B', residual: -2, n: 7 },
    ]);
    expect(map.get('A')).toEqual({ residual: 1.5, n: 3 });
    expect(map.get('B')).toEqual({ residual: -2, n: 7 });
    expect(map.size).toBe(2);
  });
});
