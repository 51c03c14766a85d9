import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/** Seeded randomness: the same seed gives the same data on every machine. */
export class Random {
  private readonly rng: RandomGenerator;
  private spare: number | undefined;

  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed);
  }

  uniform(): number {
    return uniformFloat64(this.rng);
  }

  between(min: number, max: number): number {
    return min + (max - min) * this.uniform();
  }

  int(min: number, max: number): number {
    return Math.floor(this.between(min, max + 1));
  }

  chance(p: number): boolean {
    return this.uniform() < p;
  }

  /** Standard normal, Box-Muller (the second value of each pair is kept for the next call). */
  normal(): number {
    if (this.spare !== undefined) {
      const value = this.spare;
      this.spare = undefined;
      return value;
    }
    const u = 1 - this.uniform();
    const v = this.uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal with the given median and log-scale standard deviation. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /**
   * Poisson count with mean `mean`: by multiplying uniforms for small means (exact), by a
   * rounded normal for large ones (where the two are indistinguishable at a glance).
   */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 30) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    const limit = Math.exp(-mean);
    let count = 0;
    let product = this.uniform();
    while (product > limit) {
      count += 1;
      product *= this.uniform();
    }
    return count;
  }

  /** Index drawn in proportion to weights, given their running sums. */
  weightedIndex(cumulative: Float64Array): number {
    const total = cumulative[cumulative.length - 1] ?? 0;
    const target = this.uniform() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

export function cumulativeSums(weights: readonly number[]): Float64Array {
  const sums = new Float64Array(weights.length);
  let running = 0;
  weights.forEach((w, i) => {
    running += w;
    sums[i] = running;
  });
  return sums;
}
