import { monthIndex } from '../../dates.js';
import { EARTH_RADIUS_M, radiusBox } from '../geo.js';
import { DEAL_CODES, KIND_CODES, type DivisionSlice } from './division-slice.js';
import {
  RANGE_FILTERS,
  type OfferGrouping,
  type OfferMetric,
  type OfferSelection,
  type OfferStatisticsQuery,
  type RangeFilter,
  type StatisticsGroupResult,
} from './offer-statistics.js';
import type { Pacer } from '../../work/pacer.js';
import { percentiles } from './order-statistics.js';

/**
 * Offer statistics computed on a division's slice in memory, giving what the SQL of
 * offer-statistics.ts gives (a property test runs both): the same filters, the same groups, and
 * per statistic the same formula — sums in the slice's row order, percentiles by DuckDB's
 * interpolation.
 */

const FLAG_FILTERS = [
  ['isActive', 'is_active'],
  ['isNew', 'is_new'],
  ['isPrivate', 'is_private'],
  ['hasOpenKitchen', 'has_open_kitchen'],
] as const;

/** A metric's value of each selected offer, NaN where SQL has NULL (per m²: no area > 0). */
function metricValues(
  slice: DivisionSlice,
  metric: OfferMetric,
  selected: Int32Array,
): Float64Array {
  const values = new Float64Array(selected.length);
  const n = slice.numbers;
  const price =
    metric === 'sale_price_per_square_meter'
      ? n.sale_price
      : metric === 'rent_gross_per_square_meter'
        ? n.rent_gross
        : metric === 'rent_net_per_square_meter'
          ? n.rent_net
          : undefined;
  if (price) {
    const area = n.living_area;
    for (let k = 0; k < selected.length; k++) {
      const i = selected[k] as number;
      const a = area[i] as number;
      values[k] = a > 0 ? (price[i] as number) / a : NaN;
    }
  } else {
    const column = n[metric as keyof typeof n];
    for (let k = 0; k < selected.length; k++) values[k] = column[selected[k] as number] as number;
  }
  return values;
}

/** The first index in `from..to` whose month is at least `month` (months ascending there). */
function firstFrom(months: Int32Array, from: number, to: number, month: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((months[mid] as number) < month) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The offers of the runs the deal type, property type and months allow (see DivisionSlice.runs),
 * in slice order: the other conditions then only look at these.
 */
function candidates(slice: DivisionSlice, selection: OfferSelection): Int32Array {
  const deal = selection.dealType === undefined ? undefined : DEAL_CODES[selection.dealType];
  const kind =
    selection.propertyType === undefined ? undefined : KIND_CODES[selection.propertyType];
  const { first, last } = selection.months ?? {};
  const parts: [number, number][] = [];
  let count = 0;
  for (const run of slice.runs) {
    if ((deal !== undefined && run.deal !== deal) || (kind !== undefined && run.kind !== kind)) {
      continue;
    }
    const from =
      first === undefined ? run.from : firstFrom(slice.month, run.from, run.to, monthIndex(first));
    const to =
      last === undefined ? run.to : firstFrom(slice.month, from, run.to, monthIndex(last) + 1);
    parts.push([from, to]);
    count += to - from;
  }
  const offers = new Int32Array(count);
  let n = 0;
  for (const [from, to] of parts) for (let i = from; i < to; i++) offers[n++] = i;
  return offers;
}

// Each condition keeps the offers of `offers[0..n)` that pass it, in a plain loop over its
// column (a callback per offer costs several times more), and returns how many it kept. NaN
// (NULL) fails every comparison, as NULL does in SQL.
function keepEqual(offers: Int32Array, n: number, column: Int8Array, value: number): number {
  let kept = 0;
  for (let k = 0; k < n; k++) {
    const i = offers[k] as number;
    if (column[i] === value) offers[kept++] = i;
  }
  return kept;
}
function keepAtLeast(offers: Int32Array, n: number, column: Float64Array, min: number): number {
  let kept = 0;
  for (let k = 0; k < n; k++) {
    const i = offers[k] as number;
    if ((column[i] as number) >= min) offers[kept++] = i;
  }
  return kept;
}
function keepAtMost(offers: Int32Array, n: number, column: Float64Array, max: number): number {
  let kept = 0;
  for (let k = 0; k < n; k++) {
    const i = offers[k] as number;
    if ((column[i] as number) <= max) offers[kept++] = i;
  }
  return kept;
}

/** The selected offers' indexes, in slice order. */
function selectedOffers(slice: DivisionSlice, selection: OfferSelection): Int32Array {
  const offers = candidates(slice, selection);
  let n = offers.length;
  for (const [name, column] of FLAG_FILTERS) {
    const value = selection[name];
    if (value !== undefined) n = keepEqual(offers, n, slice.flags[column], value ? 1 : 0);
  }
  for (const [name, range] of Object.entries(selection.ranges ?? {})) {
    // The range filters' columns are columns of the slice, by the same names.
    const column = slice.numbers[RANGE_FILTERS[name as RangeFilter]];
    // A range without bounds still asks for a value: NaN (NULL) fails every comparison.
    if (range.min === undefined && range.max === undefined)
      n = keepAtLeast(offers, n, column, -Infinity);
    if (range.min !== undefined) n = keepAtLeast(offers, n, column, range.min);
    if (range.max !== undefined) n = keepAtMost(offers, n, column, range.max);
  }
  if (selection.near) {
    const within = withinRadius(slice, selection.near);
    let kept = 0;
    for (let k = 0; k < n; k++) {
      const i = offers[k] as number;
      if (within(i)) offers[kept++] = i;
    }
    n = kept;
  }
  return offers.subarray(0, n);
}

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** geo.ts withinRadius in code: the same bounding box, then the same haversine distance. */
function withinRadius(
  slice: DivisionSlice,
  near: NonNullable<OfferSelection['near']>,
): (i: number) => boolean {
  const { latitude: lat, longitude: lon } = near.point;
  const { dLat, dLon } = radiusBox(lat, near.radius);
  const lats = slice.numbers.latitude;
  const lons = slice.numbers.longitude;
  const cosLat = Math.cos(radians(lat));
  return (i) => {
    const la = lats[i] as number;
    const lo = lons[i] as number;
    if (!(la >= lat - dLat && la <= lat + dLat && lo >= lon - dLon && lo <= lon + dLon)) {
      return false;
    }
    const h =
      Math.sin(radians(la - lat) / 2) ** 2 +
      cosLat * Math.cos(radians(la)) * Math.sin(radians(lo - lon) / 2) ** 2;
    return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(h)) <= near.radius;
  };
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** The first day of the period starting at a month index: DuckDB's date_trunc, `YYYY-MM-DD`. */
function periodStart(first: number): string {
  const year = Math.floor(first / 12);
  return `${pad(year, 4)}-${pad(first - year * 12 + 1, 2)}-01`;
}

const MONTHS_PER = { month: 1, quarter: 3, year: 12 } as const;

/**
 * The groups of the query, each as positions into `selected` in slice order (groups without
 * offers left out). `valuesOf` gives a metric's values of the selected offers.
 */
function groupsOf(
  slice: DivisionSlice,
  query: OfferStatisticsQuery,
  selected: Int32Array,
  valuesOf: (metric: OfferMetric) => Float64Array,
): { key: string; positions: Int32Array | undefined }[] {
  const { grouping } = query;
  // undefined: every selected offer, in order.
  if (grouping.by === 'all') return [{ key: 'all', positions: undefined }];
  if (grouping.by === 'period') {
    const step = MONTHS_PER[grouping.period];
    // Counting sort by period: the period of each offer, then the offers of each period.
    const period = new Int32Array(selected.length);
    let lowest = Infinity;
    let highest = -Infinity;
    for (let k = 0; k < selected.length; k++) {
      const p = Math.floor((slice.month[selected[k] as number] as number) / step);
      period[k] = p;
      if (p < lowest) lowest = p;
      if (p > highest) highest = p;
    }
    if (selected.length === 0) return [];
    const counts = new Int32Array(highest - lowest + 2);
    for (const p of period) counts[p - lowest + 1] = (counts[p - lowest + 1] as number) + 1;
    for (let b = 1; b < counts.length; b++)
      counts[b] = (counts[b] as number) + (counts[b - 1] as number);
    const starts = Int32Array.from(counts);
    const positions = new Int32Array(selected.length);
    for (let k = 0; k < selected.length; k++) {
      const b = (period[k] as number) - lowest;
      positions[counts[b] as number] = k;
      counts[b] = (counts[b] as number) + 1;
    }
    const groups: { key: string; positions: Int32Array }[] = [];
    for (let b = 0; b + 1 < starts.length; b++) {
      const from = starts[b] as number;
      const to = starts[b + 1] as number;
      if (to > from) {
        groups.push({
          key: periodStart((lowest + b) * step),
          positions: positions.subarray(from, to),
        });
      }
    }
    return groups;
  }
  return valueGroups(valuesOf(grouping.metric), grouping.ranges);
}

type Range = OfferGrouping & { by: 'value' } extends { ranges: readonly (infer R)[] } ? R : never;

/** Whether a value lies in a range: lower bound included, upper excluded, open ends open. */
const inRange = (v: number, range: Range) =>
  v >= (range.lowerBound ?? -Infinity) && (range.upperBound === undefined || v < range.upperBound);

/**
 * The positions of the values in each range (groups without values left out). Ranges that
 * follow each other without overlap (the usual request) are found for each value by binary
 * search over their lower bounds and collected by a counting sort; others by one pass each.
 */
function valueGroups(
  x: Float64Array,
  ranges: readonly Range[],
): { key: string; positions: Int32Array }[] {
  const lows = ranges.map((r) => r.lowerBound ?? -Infinity);
  const ascending =
    ranges.every(
      (r, g) =>
        g + 1 === ranges.length ||
        (r.upperBound !== undefined && r.upperBound <= (lows[g + 1] as number)),
    ) && lows.every((low, g) => g === 0 || low >= (lows[g - 1] as number));
  const groups: { key: string; positions: Int32Array }[] = [];
  if (!ascending) {
    const buffer = new Int32Array(x.length);
    ranges.forEach((range, g) => {
      let n = 0;
      for (let k = 0; k < x.length; k++) if (inRange(x[k] as number, range)) buffer[n++] = k;
      if (n > 0) groups.push({ key: String(g), positions: buffer.slice(0, n) });
    });
    return groups;
  }
  // The range of each value (-1: none), then the values of each range in order.
  const groupOf = new Int32Array(x.length);
  const counts = new Int32Array(ranges.length + 1);
  for (let k = 0; k < x.length; k++) {
    const v = x[k] as number;
    let lo = 0;
    let hi = lows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((lows[mid] as number) <= v) lo = mid + 1;
      else hi = mid;
    }
    const g = lo - 1;
    const range = ranges[g];
    const found = range && inRange(v, range) ? g : -1;
    groupOf[k] = found;
    if (found >= 0) counts[found + 1] = (counts[found + 1] as number) + 1;
  }
  for (let g = 1; g < counts.length; g++)
    counts[g] = (counts[g] as number) + (counts[g - 1] as number);
  const starts = Int32Array.from(counts);
  const positions = new Int32Array(starts[ranges.length] as number);
  for (let k = 0; k < x.length; k++) {
    const g = groupOf[k] as number;
    if (g < 0) continue;
    positions[counts[g] as number] = k;
    counts[g] = (counts[g] as number) + 1;
  }
  for (let g = 0; g < ranges.length; g++) {
    const from = starts[g] as number;
    const to = starts[g + 1] as number;
    if (to > from) groups.push({ key: String(g), positions: positions.subarray(from, to) });
  }
  return groups;
}

/** The values of a metric in a group, NULLs (NaN) left out, in slice order. */
function sampleOf(values: Float64Array, positions: Int32Array | undefined): Float64Array {
  const sample = new Float64Array(positions ? positions.length : values.length);
  let n = 0;
  if (positions) {
    for (const k of positions) {
      const v = values[k] as number;
      if (v === v) sample[n++] = v;
    }
  } else {
    for (const v of values) if (v === v) sample[n++] = v;
  }
  return sample.subarray(0, n);
}

/**
 * One group's results: per metric its values (NULLs left out), then each statistic. Pauses
 * (`pacer`) after each metric's sample and percentiles, the pieces that grow with the offers.
 */
async function groupResult(
  query: OfferStatisticsQuery,
  key: string,
  positions: Int32Array | undefined,
  valuesOf: (metric: OfferMetric) => Float64Array,
  pacer: Pacer,
): Promise<StatisticsGroupResult> {
  const samples = new Map<OfferMetric, Float64Array>();
  for (const metric of new Set(query.statistics.map((s) => s.metric))) {
    samples.set(metric, sampleOf(valuesOf(metric), positions));
    await pacer.pause();
  }
  const counts: Partial<Record<OfferMetric, number>> = {};
  if (query.grouping.by === 'value') {
    // The grouping metric is counted too, as the SQL counts every metric it reads.
    counts[query.grouping.metric] = sampleOf(valuesOf(query.grouping.metric), positions).length;
  }
  for (const [metric, values] of samples) counts[metric] = values.length;

  // Percentiles of one metric are taken together: the selection reorders a copy once.
  const percentileValues = new Map<number, number>();
  for (const [metric, values] of samples) {
    const wanted = query.statistics
      .map((s, i) => ({ s, i }))
      .filter(({ s }) => s.metric === metric && s.type === 'percentile');
    if (wanted.length === 0 || values.length === 0) continue;
    const found = percentiles(
      Float64Array.from(values),
      wanted.map(({ s }) => (s.percentileRank ?? 0) / 100),
    );
    wanted.forEach(({ i }, k) => percentileValues.set(i, found[k] as number));
    await pacer.pause();
  }

  const values = query.statistics.map((stat, index) => {
    const sample = samples.get(stat.metric) ?? new Float64Array(0);
    const n = sample.length;
    switch (stat.type) {
      case 'count':
        return n;
      case 'mean': {
        if (n === 0) return null;
        let sum = 0;
        for (const x of sample) sum += x;
        return sum / n;
      }
      case 'percentile':
        return n === 0 ? null : (percentileValues.get(index) ?? null);
      case 'percentile_rank': {
        if (n === 0) return null;
        const limit = stat.percentileValue ?? 0;
        let below = 0;
        for (const x of sample) if (x <= limit) below++;
        return (100 * below) / n;
      }
    }
  });
  return { key, counts, values };
}

/**
 * The statistics of a query over one division's slice. The computation runs on the server's
 * thread: it pauses (`pacer`: a turn for the event loop every `limits.statistics.sliceTurnMs` of
 * computing, and the request's deadline) between metrics and groups, so that no request's
 * statistics hold up everyone else's requests for their whole time (50 percentiles × 24 groups
 * over a large division: 150–210 ms).
 */
export async function sliceStatistics(
  slice: DivisionSlice,
  query: OfferStatisticsQuery,
  pacer: Pacer,
): Promise<StatisticsGroupResult[]> {
  const selected = selectedOffers(slice, query.selection);
  const byMetric = new Map<OfferMetric, Float64Array>();
  const valuesOf = (metric: OfferMetric) => {
    let values = byMetric.get(metric);
    if (!values) {
      values = metricValues(slice, metric, selected);
      byMetric.set(metric, values);
    }
    return values;
  };
  const results: StatisticsGroupResult[] = [];
  for (const { key, positions } of groupsOf(slice, query, selected, valuesOf)) {
    results.push(await groupResult(query, key, positions, valuesOf, pacer));
  }
  return results;
}
