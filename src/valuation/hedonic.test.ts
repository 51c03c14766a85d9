import { describe, expect, it } from 'vitest';
import { fitHedonic, indexAt, LAST_MONTH_SHARE, solve, type MonthStats } from './hedonic.js';

describe('solve', () => {
  it('solves a 2×2 system', () => {
    const [x, y] = solve(
      [
        [2, 1],
        [1, 3],
      ],
      [3, 5],
    );
    expect(x).toBeCloseTo(0.8, 10);
    expect(y).toBeCloseTo(1.4, 10);
  });
});

const month = (m: number, points: [number, number][]): MonthStats => ({
  month: m,
  n: points.length,
  sumY: points.reduce((s, [, y]) => s + y, 0),
  sumX: [points.reduce((s, [x]) => s + x, 0)],
  sumXX: [points.reduce((s, [x]) => s + x * x, 0)],
  sumXY: [points.reduce((s, [x, y]) => s + x * y, 0)],
});

describe('fitHedonic', () => {
  it('finds the coefficient within months and the month effects (by hand: β 0.5, effects 1 and 2)', () => {
    const stats = [
      month(100, [
        [0, 1],
        [1, 1.5],
      ]),
      month(101, [
        [0, 2],
        [2, 3],
      ]),
    ];
    const fit = fitHedonic(stats, 1, 0);
    expect(fit.beta[0]).toBeCloseTo(0.5, 10);
    expect(fit.months.map((m) => m.effect)).toEqual([expect.closeTo(1, 10), expect.closeTo(2, 10)]);
  });

  it('shrinks a coefficient resting on little data towards zero', () => {
    const stats = [
      month(100, [
        [0, 1],
        [1, 1.5],
      ]),
    ];
    // Within-month Sxx 0.5, Sxy 0.25: β = 0.25 / (0.5 + 20).
    expect(fitHedonic(stats, 1, 20).beta[0]).toBeCloseTo(0.25 / 20.5, 10);
  });

  it('shrinks it towards a prior when one is given', () => {
    const stats = [
      month(100, [
        [0, 1],
        [1, 1.5],
      ]),
    ];
    // β = (Sxy + ridge × prior) / (Sxx + ridge) = (0.25 + 20 × 0.3) / 20.5.
    expect(fitHedonic(stats, 1, 20, [0.3]).beta[0]).toBeCloseTo(6.25 / 20.5, 10);
    // Plenty of data: the data win over the prior.
    const many = Array.from({ length: 400 }, (_, i) =>
      month(i, [
        [0, 1],
        [1, 1.5],
      ]),
    );
    expect(fitHedonic(many, 1, 20, [0.3]).beta[0]).toBeCloseTo((100 + 6) / 220, 10);
  });
});

describe('indexAt', () => {
  const months = Array.from({ length: 10 }, (_, i) => ({
    month: 90 + i,
    n: 100,
    effect: 0.01 * (90 + i - 100),
  }));

  it('fits a linear trend one-sided at the last month with offers', () => {
    expect(indexAt(months, 99)).toBeCloseTo(-0.01, 10);
  });

  it('never carries the slope past the last month with offers', () => {
    // A trend of +1% a month up to month 99: months 100 and 107 get month 99's level, not the
    // +1% and +8% a continued slope would add (real prices turn: Paris 2022, a coastal town).
    expect(indexAt(months, 100)).toBeCloseTo(-0.01, 10);
    expect(indexAt(months, 107)).toBeCloseTo(-0.01, 10);
    const falling = months.map((m) => ({ ...m, effect: -m.effect }));
    expect(indexAt(falling, 110)).toBeCloseTo(0.01, 10);
  });

  it('reproduces a linear trend inside the data', () => {
    expect(indexAt(months, 95)).toBeCloseTo(-0.05, 10);
  });

  it('does not end at a month holding far fewer offers than usual, after a gap', () => {
    // The trend ends at month 99 (−0.01); after a gap, months 102 and 103 hold 1 and 3 offers
    // against 100 a month before. Ending at 103 would carry the slope of months 90–99 on.
    const stray = [
      ...months,
      { month: 102, n: 1, effect: -0.3 },
      { month: 103, n: 3, effect: 0.4 },
    ];
    expect(3).toBeLessThan(LAST_MONTH_SHARE * 100);
    expect(indexAt(stray, 110)).toBeCloseTo(indexAt(stray, 99) ?? NaN, 12);
    expect(indexAt(stray, 110)).toBeCloseTo(-0.01, 2);
    // A last month with its share of the usual offers is the end.
    const supported = [...months, { month: 103, n: LAST_MONTH_SHARE * 100, effect: 0.03 }];
    expect(indexAt(supported, 110)).toBeCloseTo(indexAt(supported, 103) ?? NaN, 12);
    expect(indexAt(supported, 110)).not.toBeCloseTo(indexAt(supported, 99) ?? NaN, 3);
  });

  it('ends at the last month where every month holds a few offers', () => {
    const few = Array.from({ length: 24 }, (_, i) => ({
      month: i,
      n: 1 + (i % 3),
      effect: 0.005 * i,
    }));
    expect(indexAt(few, 30)).toBeCloseTo(indexAt(few, 23) ?? NaN, 12);
    expect(indexAt(few, 30)).toBeCloseTo(0.005 * 23, 2);
  });

  it('is undefined without data', () => {
    expect(indexAt([], 100)).toBeUndefined();
  });
});
