/**
 * Percentiles of an unsorted sample as DuckDB's `quantile_cont` computes them: the value at
 * position p·(n−1) of the sorted sample, interpolated linearly between its two neighbours as
 * `lo + (hi − lo)·(pos − ⌊pos⌋)`. Answers must equal the SQL path's, so the formula is DuckDB's.
 */

/**
 * Moves the k-th smallest value of `values[from..to]` to index k, smaller ones before it and
 * larger ones after (Hoare's selection with a median-of-three pivot): O(n) on average, where a
 * sort is O(n log n). The values must not be NaN.
 */
function select(values: Float64Array, k: number, from: number, to: number): void {
  let lo = from;
  let hi = to;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot: sorted or constant runs stay linear.
    const a = values[lo] as number;
    const b = values[mid] as number;
    const c = values[hi] as number;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((values[i] as number) < pivot) i++;
      while ((values[j] as number) > pivot) j--;
      if (i <= j) {
        const t = values[i] as number;
        values[i] = values[j] as number;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/** The smallest value of `values[from..to]`. */
function minimum(values: Float64Array, from: number, to: number): number {
  let min = values[from] as number;
  for (let i = from + 1; i <= to; i++) if ((values[i] as number) < min) min = values[i] as number;
  return min;
}

/** Interpolates at position `p·(n−1)` between the values just below and above it. */
function interpolate(lo: number, hi: number, pos: number): number {
  return lo + (hi - lo) * (pos - Math.floor(pos));
}

/**
 * The percentiles `ps` (0–1) of a sample; reorders `values`. Few percentiles are selected
 * (linear each), many are read from one sort.
 */
export function percentiles(values: Float64Array, ps: readonly number[]): number[] {
  const n = values.length;
  if (n === 0) return ps.map(() => NaN);
  if (ps.length > 6) {
    values.sort();
    return ps.map((p) => {
      const pos = p * (n - 1);
      const lo = Math.floor(pos);
      return interpolate(values[lo] as number, values[Math.ceil(pos)] as number, pos);
    });
  }
  return ps.map((p) => {
    const pos = p * (n - 1);
    const lo = Math.floor(pos);
    select(values, lo, 0, n - 1);
    const low = values[lo] as number;
    const high = Math.ceil(pos) === lo ? low : minimum(values, lo + 1, n - 1);
    return interpolate(low, high, pos);
  });
}
