import { describe, expect, it } from 'vitest';
import { postcodeEffects, type PostcodeMonth } from './postcode-effects.js';

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

describe('postcodeEffects', () => {
  it('is the residual sum over offers + shrinkage, from months before the date only', () => {
    const rows = [
      // 4 offers, Σy 9, Σx 2: residual 9 − 4·2 − 0.5·2 = 0
      row('A', 100, 4, 9, 2),
      // 2 offers, Σy 7, Σx 0: residual 7 − 2·3 = 1
      row('A', 101, 2, 7, 0),
      // 3 offers, Σy 4.5, Σx 1: residual 4.5 − 3·2 − 0.5 = −2
      row('B', 100, 3, 4.5, 1),
      // Month 102 is the valuation month: ignored.
      row('B', 102, 50, 500, 0),
    ];
    const effects = postcodeEffects(rows, fit, 102, 4);
    // A: (0 + 1) / (6 + 4) = 0.1; B: −2 / (3 + 4) = −2/7
    expect(effects.get('A')).toBeCloseTo(0.1, 12);
    expect(effects.get('B')).toBeCloseTo(-2 / 7, 12);
    // Only month 100 before 101: A's residual 0 over 4 + 4.
    expect(postcodeEffects(rows, fit, 101, 4).get('A')).toBe(0);
  });

  it('skips months without a month effect and knows no postcode without offers', () => {
    const effects = postcodeEffects([row('C', 99, 5, 50, 0)], fit, 102, 4);
    expect(effects.has('C')).toBe(false);
  });
});
