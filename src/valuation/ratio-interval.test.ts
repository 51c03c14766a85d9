import { describe, expect, it } from 'vitest';
import { Random } from '../market/generate/random.js';
import { median } from './backtest.js';
import { mdapeRatioInterval, medianOfCounts, type RatioInterval } from './ratio-interval.js';

/** The plain way: write the resample out and sort it. */
function medianOfResample(values: readonly number[], counts: Uint32Array): number {
  return median(values.flatMap((v, i) => Array<number>(counts[i] ?? 0).fill(v)));
}

function interval(errors: number[], baseline: number[], seed?: number): RatioInterval {
  const found = mdapeRatioInterval(errors, baseline, seed);
  if (found === null) throw new Error('no interval');
  return found;
}

/** Errors of two methods on the same cases, as on real sales: they share most of their error. */
function pairedErrors(random: Random, n: number, sigma: number, scale: number) {
  const errors: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < n; i++) {
    const shared = random.normal();
    const own = random.normal();
    baseline.push(Math.abs(sigma * shared));
    errors.push(Math.abs(scale * sigma * (0.95 * shared + 0.31 * own)));
  }
  return { errors, baseline };
}

describe('the median of a resample given by counts', () => {
  it('equals the median of the resample written out, for odd and even sizes and ties', () => {
    const random = new Random(3);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + random.int(0, 30);
      // Few distinct values, so ties between cases are common.
      const values = Array.from({ length: n }, () => random.int(0, 8) / 4);
      const order = Uint32Array.from(values.keys()).sort(
        (i, j) => (values[i] ?? 0) - (values[j] ?? 0),
      );
      const counts = new Uint32Array(n);
      const total = random.int(1, 2 * n);
      for (let k = 0; k < total; k++) {
        const drawn = random.int(0, n - 1);
        counts[drawn] = (counts[drawn] ?? 0) + 1;
      }
      expect(medianOfCounts(values, order, counts, total)).toBe(medianOfResample(values, counts));
    }
  });
});

describe('the paired bootstrap interval of a ratio of MdAPEs', () => {
  it('is a point where one method’s errors are a fixed multiple of the other’s', () => {
    const { baseline } = pairedErrors(new Random(1), 500, 0.15, 1);
    expect(mdapeRatioInterval(baseline, baseline)).toMatchObject({ low: 1, high: 1 });
    const half = interval(
      baseline.map((e) => e / 2),
      baseline,
    );
    expect(half.low).toBeCloseTo(0.5, 12);
    expect(half.high).toBeCloseTo(0.5, 12);
  });

  it('holds the ratio measured and narrows as the cases grow (about 1/√n)', () => {
    const width = (n: number) => {
      const { errors, baseline } = pairedErrors(new Random(n), n, 0.15, 0.9);
      const found = interval(errors, baseline);
      const point = median(errors) / median(baseline);
      expect(found.low).toBeLessThan(point);
      expect(found.high).toBeGreaterThan(point);
      return found.high - found.low;
    };
    const ratio = width(400) / width(6400);
    expect(ratio).toBeGreaterThan(2.5);
    expect(ratio).toBeLessThan(6);
  });

  it('holds the true ratio about 90% of the time over repeated samples', () => {
    // The errors are |normal| with standard deviations in a known ratio, so the population
    // ratio of medians is that ratio: 0.9 × √(0.95² + 0.31²).
    const truth = 0.9 * Math.hypot(0.95, 0.31);
    const random = new Random(11);
    let held = 0;
    const samples = 100;
    for (let s = 0; s < samples; s++) {
      const { errors, baseline } = pairedErrors(random, 300, 0.15, 0.9);
      const found = interval(errors, baseline, s + 1);
      if (found.low <= truth && truth <= found.high) held++;
    }
    expect(held / samples).toBeGreaterThanOrEqual(0.8);
    expect(held / samples).toBeLessThanOrEqual(0.98);
  });

  it('is narrower than resampling the two methods apart would make it', () => {
    // Pairing is the point: the two methods' errors on the same sales move together.
    const { errors, baseline } = pairedErrors(new Random(5), 2000, 0.15, 0.9);
    const paired = interval(errors, baseline);
    const apart = interval(errors, [...baseline].reverse());
    expect(paired.high - paired.low).toBeLessThan(0.8 * (apart.high - apart.low));
  });

  it('is null without cases, with unequal lists or where a median is 0', () => {
    expect(mdapeRatioInterval([], [])).toBeNull();
    expect(mdapeRatioInterval([0.1, 0.2], [0.1])).toBeNull();
    expect(mdapeRatioInterval([0.1, 0.2, 0.3], [0, 0, 0])).toBeNull();
  });

  it('is the same on every run with the same seed', () => {
    const { errors, baseline } = pairedErrors(new Random(9), 300, 0.15, 0.9);
    expect(mdapeRatioInterval(errors, baseline, 4)).toEqual(
      mdapeRatioInterval(errors, baseline, 4),
    );
  });
});
