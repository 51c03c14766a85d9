import { describe, expect, it } from 'vitest';
import { centralEstimate, confidenceOf, forecastSd, rangeOf } from './estimate.js';

const TAU = 0.04;

const unweighted = (ys: number[]) => ys.map((y) => ({ y, weight: 1 }));

describe('centralEstimate', () => {
  it('drops an outlier and averages the rest (by hand: median 1, MAD 0.1)', () => {
    const e = centralEstimate(unweighted([1, 1.1, 0.9, 1.0, 5]), TAU);
    expect(e.used).toBe(4);
    expect(e.center).toBeCloseTo(1, 10);
    expect(e.spread).toBeCloseTo(0.14826, 10);
    expect(e.effectiveCount).toBeCloseTo(4, 10);
  });

  it('counts unequal weights as fewer comparables', () => {
    const e = centralEstimate(
      [
        { y: 1, weight: 3 },
        { y: 1, weight: 1 },
      ],
      TAU,
    );
    expect(e.effectiveCount).toBeCloseTo(16 / 10, 10);
  });

  it('is the plain mean, all on the comparables, where the model has no value', () => {
    const e = centralEstimate(unweighted([1, 1.1, 0.9, 1.0]), TAU);
    expect(e.center).toBeCloseTo(1, 10);
    expect(e.comparablesWeight).toBe(1);
  });

  it("shrinks the comparables' mean residual towards the model's value by τ² / (τ² + spread² / n_eff)", () => {
    // By hand: median 1, MAD 0.05 (spread 1.4826 × 0.05), mean 1.01, residuals around 0.9.
    const ys = [1, 1.1, 0.9, 1.0, 1.05];
    const e = centralEstimate(
      ys.map((y) => ({ y, weight: 1, model: 0.9 })),
      TAU,
    );
    const spread = 1.4826 * 0.05;
    expect(e.spread).toBeCloseTo(spread, 10);
    const weight = TAU ** 2 / (TAU ** 2 + spread ** 2 / 5);
    expect(e.comparablesWeight).toBeCloseTo(weight, 10);
    expect(e.center).toBeCloseTo(0.9 + weight * 0.11, 10);
    // More comparables saying the same count more, but never beyond their own mean.
    const many = centralEstimate(
      Array.from({ length: 50 }, (_, i) => ({ y: ys[i % 5] ?? 1, weight: 1, model: 0.9 })),
      TAU,
    );
    expect(many.comparablesWeight).toBeGreaterThan(e.comparablesWeight);
    expect(many.center).toBeGreaterThan(e.center);
    expect(many.center).toBeLessThan(1.01);
  });
});

describe('forecastSd', () => {
  const estimate = { center: 0, spread: 0.1, effectiveCount: 4, used: 4, comparablesWeight: 1 };

  it('leaves out the known listing noise (by hand: √(0.05² + 0.015² + 0.015²))', () => {
    expect(forecastSd(estimate, 0, 0.1)).toBeCloseTo(Math.sqrt(0.00295), 10);
  });

  it('counts most of the spread where no noise is known (by hand: + 0.8 × 0.1²)', () => {
    expect(forecastSd(estimate, 0, 0)).toBeCloseTo(Math.sqrt(0.00295 + 0.008), 10);
  });

  it('counts less of the spread beyond the noise against a recorded truth (by hand)', () => {
    // √((0.2/√4)² + 0.015² + 0.015² + 0.3 × (0.2² − 0.1²)): most of the excess spread is the
    // adjustments' error, which a recorded true value does not share.
    const wide = { ...estimate, spread: 0.2 };
    expect(forecastSd(wide, 0, 0.1)).toBeCloseTo(Math.sqrt(0.01 + 0.00045 + 0.009), 10);
    // Against an observed price 0.8 of all of it counts: √(0.01045 + 0.8 × 0.2²).
    expect(forecastSd(wide, 0, 0)).toBeCloseTo(Math.sqrt(0.01045 + 0.032), 10);
  });

  it("counts the comparables' standard error as far as the value rests on them", () => {
    // √((0.5 × 0.05)² + 0.015² + 0.015²)
    const half = { ...estimate, comparablesWeight: 0.5 };
    expect(forecastSd(half, 0, 0.1)).toBeCloseTo(Math.sqrt(0.001075), 10);
  });

  it('grows as the search widens', () => {
    expect(forecastSd(estimate, 5, 0.1)).toBeGreaterThan(forecastSd(estimate, 0, 0.1));
  });
});

describe('forecastSd with a measured single-offer spread', () => {
  const estimate = { center: 0, spread: 0.1, effectiveCount: 4, used: 4, comparablesWeight: 1 };
  const base = 0.05 ** 2 + 0.015 ** 2 + 0.015 ** 2;

  it('counts the region’s single-offer spread where it exceeds the comparables’ (by hand)', () => {
    // 0.8 × 0.1² = 0.008 < 0.2² = 0.04: the floor counts.
    expect(forecastSd(estimate, 0, 0, 0.2)).toBeCloseTo(Math.sqrt(base + 0.04), 10);
  });

  it('keeps the comparables’ spread where it is the larger', () => {
    expect(forecastSd(estimate, 0, 0, 0.05)).toBeCloseTo(Math.sqrt(base + 0.008), 10);
  });

  it('does not apply where the listing noise is known (the truth is recorded)', () => {
    expect(forecastSd(estimate, 0, 0.1, 0.2)).toBeCloseTo(Math.sqrt(base), 10);
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
