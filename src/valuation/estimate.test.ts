import { describe, expect, it } from 'vitest';
import { centralEstimate, confidenceOf, forecastSd, rangeOf } from './estimate.js';

const unweighted = (ys: number[]) => ys.map((y) => ({ y, weight: 1 }));

describe('centralEstimate', () => {
  it('drops an outlier and averages the rest (by hand: median 1, MAD 0.1)', () => {
    const e = centralEstimate(unweighted([1, 1.1, 0.9, 1.0, 5]));
    expect(e.used).toBe(4);
    expect(e.center).toBeCloseTo(1, 10);
    expect(e.spread).toBeCloseTo(0.14826, 10);
    expect(e.effectiveCount).toBeCloseTo(4, 10);
  });

  it('counts unequal weights as fewer comparables', () => {
    const e = centralEstimate([
      { y: 1, weight: 3 },
      { y: 1, weight: 1 },
    ]);
    expect(e.effectiveCount).toBeCloseTo(16 / 10, 10);
  });
});

describe('forecastSd', () => {
  const estimate = { center: 0, spread: 0.1, effectiveCount: 4, used: 4 };

  it('leaves out the known listing noise (by hand: √(0.05² + 0.015² + 0.01²))', () => {
    expect(forecastSd(estimate, 0, 0.1)).toBeCloseTo(Math.sqrt(0.002825), 10);
  });

  it('counts the whole spread where no noise is known', () => {
    expect(forecastSd(estimate, 0, 0)).toBeCloseTo(Math.sqrt(0.012825), 10);
  });

  it('grows as the search widens', () => {
    expect(forecastSd(estimate, 5, 0.1)).toBeGreaterThan(forecastSd(estimate, 0, 0.1));
  });
});

describe('confidence and range', () => {
  it('maps the forecast SD to classes at 10% and 20%', () => {
    expect(confidenceOf(0.05)).toBe('good');
    expect(confidenceOf(0.1)).toBe('good');
    expect(confidenceOf(0.15)).toBe('medium');
    expect(confidenceOf(0.25)).toBe('poor');
  });

  it('is one SD either side on the log scale', () => {
    const r = rangeOf(100, Math.log(1.1));
    expect(r.lower).toBeCloseTo(100 / 1.1, 10);
    expect(r.upper).toBeCloseTo(110, 10);
  });
});
