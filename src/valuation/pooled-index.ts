import { FEATURE_COUNT } from './features.js';
import {
  fitHedonic,
  INDEX_SUPPORT,
  indexAt,
  lastMonth,
  type HedonicFit,
  type MonthStats,
} from './hedonic.js';

/**
 * A region's price index that borrows its shape from the country. Markets of one country move
 * together (rates, credit, the national cycle), while a thin region's own month effects swing
 * with its few offers: its index is the country's plus the region's own deviation from it,
 * smoothed as one series. Where the region has offers enough, the deviation follows them month
 * by month and the region's index is its own; where it is thin, the deviation rests on years of
 * offers and the month-to-month shape is the country's.
 */

/** The country's region-months of one deal type, as typed arrays (one entry per region-month). */
export interface CountryCells {
  /** Region of each entry, numbered from 0; the entries of a region follow each other. */
  region: Int32Array;
  month: Int32Array;
  n: Float64Array;
  sumY: Float64Array;
  /** Σx of each entry, FEATURE_COUNT values after each other. */
  sumX: Float64Array;
}

/** What the country's index is fitted from (model-sums.ts `countryPoolSums`). */
export interface CountryPool {
  /** Per month, the cross products within its region-months (`fitHedonic` takes β from them). */
  within: readonly MonthStats[];
  cells: CountryCells;
}

export interface MonthEffect {
  month: number;
  n: number;
  effect: number;
}

/**
 * The country's month effects from its months before `beforeMonth`: β fitted on the variation
 * within region-months, then the mean of y − β·x of each region-month = region effect + month
 * effect, by least squares weighted by offers. The region effects keep a month whose offers lie
 * in dear regions from looking like a price rise. Months ascending, effects summing to 0; none
 * where the months fall apart into groups no region links.
 */
export function countryEffects(pool: CountryPool, beforeMonth: number): MonthEffect[] {
  return fitCountry(pool, beforeMonth).months;
}

/** The country's β and month effects (`countryEffects`). */
export interface CountryFit {
  beta: number[];
  months: MonthEffect[];
}

export function fitCountry(pool: CountryPool, beforeMonth: number): CountryFit {
  const k = FEATURE_COUNT;
  const beta = fitHedonic(
    pool.within.filter((m) => m.month < beforeMonth),
    k,
  ).beta;
  return { beta, months: countryMonths(pool, beforeMonth, beta) };
}

function countryMonths(
  pool: CountryPool,
  beforeMonth: number,
  beta: readonly number[],
): MonthEffect[] {
  const k = FEATURE_COUNT;
  const { cells } = pool;
  const months = [...new Set(cells.month)].filter((m) => m < beforeMonth).sort((a, b) => a - b);
  const at = new Map(months.map((m, i) => [m, i]));
  const size = months.length;
  // Normal equations of the month effects with the region effects eliminated: per region,
  // diag(n) − n nᵀ / N on the left and z − n Σz / N on the right (z = Σ(y − β·x)). The
  // cells come ordered by region: one run of cells per region.
  const a = new Float64Array(size * size);
  const b = new Float64Array(size);
  const total = new Float64Array(size);
  const runMonth = new Int32Array(size);
  const runN = new Float64Array(size);
  const runZ = new Float64Array(size);
  // Months linked by a region that has offers in both (union–find over month positions).
  const parent = Int32Array.from({ length: size }, (_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] ?? i] ?? i;
    return i;
  };
  let c = 0;
  while (c < cells.n.length) {
    const region = cells.region[c];
    let length = 0;
    let sumN = 0;
    let sumZ = 0;
    for (; c < cells.n.length && cells.region[c] === region; c++) {
      const m = at.get(cells.month[c] ?? -1);
      if (m === undefined) continue;
      let z = cells.sumY[c] ?? 0;
      for (let i = 0; i < k; i++) z -= (beta[i] ?? 0) * (cells.sumX[c * k + i] ?? 0);
      runMonth[length] = m;
      runN[length] = cells.n[c] ?? 0;
      runZ[length] = z;
      sumN += cells.n[c] ?? 0;
      sumZ += z;
      length++;
    }
    if (sumN <= 0) continue;
    for (let i = 1; i < length; i++) parent[root(runMonth[i] ?? 0)] = root(runMonth[0] ?? 0);
    for (let i = 0; i < length; i++) {
      const mi = runMonth[i] ?? 0;
      const ni = runN[i] ?? 0;
      total[mi] = (total[mi] ?? 0) + ni;
      b[mi] = (b[mi] ?? 0) + (runZ[i] ?? 0) - (ni * sumZ) / sumN;
      a[mi * size + mi] = (a[mi * size + mi] ?? 0) + ni;
      const f = ni / sumN;
      const row = mi * size;
      for (let j = 0; j < length; j++) {
        const at2 = row + (runMonth[j] ?? 0);
        a[at2] = (a[at2] ?? 0) - f * (runN[j] ?? 0);
      }
    }
  }
  // Where the months fall apart into groups no region spans (regions imported for different
  // periods), the groups' levels against each other are unknown, and a smoothed index across a
  // boundary would mix them: the country then lends no shape, each region keeps its own index.
  for (let i = 1; i < size; i++) if (root(i) !== root(0)) return [];
  // The effects are known up to a constant: pinning their sum to 0 makes the system regular
  // (the ridge, a billion times weaker than the offers, only guards the rounding).
  const pin = total.reduce((s, v) => s + v, 0) / Math.max(1, size);
  for (let i = 0; i < a.length; i++) a[i] = (a[i] ?? 0) + pin;
  for (let i = 0; i < size; i++) a[i * size + i] = (a[i * size + i] ?? 0) + 1e-9 * pin;
  const effects = choleskySolve(a, b, size);
  if (!effects) return [];
  return months.map((month, i) => ({ month, n: total[i] ?? 0, effect: effects[i] ?? 0 }));
}

/**
 * Offers the region's deviation from the country must rest on before its bandwidth stops
 * growing (the index's own rule, hedonic.ts).
 */
export const DEVIATION_SUPPORT = INDEX_SUPPORT;

/**
 * The index of a region at a month: the country's smoothed index plus the region's smoothed
 * deviation from it (each past its own last month held at that month's level, as `indexAt`
 * does). Without the country's effects, the region's own index.
 */
export function pooledIndex(
  fit: HedonicFit,
  country: readonly MonthEffect[] | undefined,
): (month: number) => number | undefined {
  const memo = new Map<number, number | undefined>();
  if (!country || country.length === 0)
    return (month) => {
      if (!memo.has(month)) memo.set(month, indexAt(fit.months, month));
      return memo.get(month);
    };
  const countryAt = new Map(country.map((c) => [c.month, c.effect]));
  // Not past the month the country's index ends at: a thin last month of the country would
  // otherwise reach the region's index through the deviation, with its sign reversed.
  const countryEnd = lastMonth(country);
  const deviation = fit.months.flatMap((m) => {
    const c = countryAt.get(m.month);
    return c === undefined || m.month > countryEnd
      ? []
      : [{ month: m.month, n: m.n, effect: m.effect - c }];
  });
  return (month) => {
    if (!memo.has(month)) {
      const base = indexAt(country, month);
      const own = indexAt(deviation, month, DEVIATION_SUPPORT);
      memo.set(month, base === undefined || own === undefined ? undefined : base + own);
    }
    return memo.get(month);
  };
}

/**
 * Solves a·x = b for a symmetric positive definite n×n matrix (row-major, overwritten) by
 * Cholesky decomposition: the country's months can number a few hundred. Undefined if the
 * matrix is not positive definite (rounding in a degenerate system).
 */
export function choleskySolve(
  a: Float64Array,
  b: Float64Array,
  n: number,
): Float64Array | undefined {
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j] ?? 0;
    for (let k = 0; k < j; k++) d -= (a[j * n + k] ?? 0) ** 2;
    if (!(d > 0)) return undefined;
    const l = Math.sqrt(d);
    a[j * n + j] = l;
    for (let i = j + 1; i < n; i++) {
      let v = a[i * n + j] ?? 0;
      for (let k = 0; k < j; k++) v -= (a[i * n + k] ?? 0) * (a[j * n + k] ?? 0);
      a[i * n + j] = v / l;
    }
  }
  const x = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    let v = x[i] ?? 0;
    for (let k = 0; k < i; k++) v -= (a[i * n + k] ?? 0) * (x[k] ?? 0);
    x[i] = v / (a[i * n + i] ?? 1);
  }
  for (let i = n - 1; i >= 0; i--) {
    let v = x[i] ?? 0;
    for (let k = i + 1; k < n; k++) v -= (a[k * n + i] ?? 0) * (x[k] ?? 0);
    x[i] = v / (a[i * n + i] ?? 1);
  }
  return x;
}
