import { Random } from '../market/generate/random.js';

/** The central `level` of the bootstrap ratios: where the ratio of two MdAPEs plausibly lies. */
export interface RatioInterval {
  low: number;
  high: number;
  level: number;
  resamples: number;
}

/** Enough resamples that the 5% and 95% points move by well under 0.01 between seeds. */
const RESAMPLES = 2000;
const LEVEL = 0.9;

/** Positions of `values` in ascending order. */
function ascendingOrder(values: readonly number[]): Uint32Array {
  const order = Uint32Array.from(values.keys());
  order.sort((i, j) => (values[i] ?? 0) - (values[j] ?? 0));
  return order;
}

/**
 * The median of a resample given as how often each case was drawn (`counts`, summing to
 * `total`), read off the cases in ascending order instead of sorting the resample: the middle
 * value, or the mean of the two middle values where `total` is even, as `median` takes it.
 */
export function medianOfCounts(
  values: readonly number[],
  order: Uint32Array,
  counts: Uint32Array,
  total: number,
): number {
  if (total === 0) return NaN;
  // 1-based ranks of the two middle values (the same one where total is odd).
  const lowRank = Math.floor((total + 1) / 2);
  const highRank = Math.floor(total / 2) + 1;
  let seen = 0;
  let low = NaN;
  for (const i of order) {
    const n = counts[i] ?? 0;
    if (n === 0) continue;
    seen += n;
    const value = values[i] ?? NaN;
    if (Number.isNaN(low) && seen >= lowRank) low = value;
    if (seen >= highRank) return (low + value) / 2;
  }
  return low;
}

function quantile(sorted: Float64Array, p: number): number {
  // Linear interpolation between order statistics (type 7, numpy's and R's default).
  const at = p * (sorted.length - 1);
  const below = Math.floor(at);
  const a = sorted[below] ?? NaN;
  const b = sorted[Math.min(below + 1, sorted.length - 1)] ?? NaN;
  return a + (b - a) * (at - below);
}

/**
 * How sure the ratio of two methods' MdAPEs over the same cases is: a paired percentile
 * bootstrap. Each resample draws the cases with replacement and keeps each case's two errors
 * together, since both methods valued the same sale and their errors move together (on Paris
 * sales the model's and kNN-10's log errors correlate at 0.98): resampling them apart would
 * make the interval about twice as wide (Paris 2024 against kNN-10: 0.93–1.00, not
 * 0.95–0.98). The ratio of the two medians is taken in each resample; the interval holds the
 * central 90% of them. Seeded, so a report is repeatable. `null` where there are no cases or
 * where a resample's median of baseline errors is 0 (the ratio has no bound then: at least
 * half of the baseline's values exact, which real prices do not give).
 */
export function mdapeRatioInterval(
  errors: readonly number[],
  baselineErrors: readonly number[],
  seed = 1,
): RatioInterval | null {
  const n = errors.length;
  if (n === 0 || baselineErrors.length !== n) return null;
  const order = ascendingOrder(errors);
  const baselineOrder = ascendingOrder(baselineErrors);
  const random = new Random(seed);
  const counts = new Uint32Array(n);
  const ratios = new Float64Array(RESAMPLES);
  for (let r = 0; r < RESAMPLES; r++) {
    counts.fill(0);
    for (let k = 0; k < n; k++) {
      const drawn = Math.floor(random.uniform() * n);
      counts[drawn] = (counts[drawn] ?? 0) + 1;
    }
    const ratio =
      medianOfCounts(errors, order, counts, n) /
      medianOfCounts(baselineErrors, baselineOrder, counts, n);
    if (!Number.isFinite(ratio)) return null;
    ratios[r] = ratio;
  }
  ratios.sort();
  return {
    low: quantile(ratios, (1 - LEVEL) / 2),
    high: quantile(ratios, 1 - (1 - LEVEL) / 2),
    level: LEVEL,
    resamples: RESAMPLES,
  };
}
