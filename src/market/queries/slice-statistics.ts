import { monthIndex } from '../../dates.js';
import { EARTH_RADIUS_M } from '../geo.js';
import { DEAL_CODES, KIND_CODES, type DivisionSlice } from './division-slice.js';
import {
  RANGE_FILTERS,
  type OfferMetric,
  type OfferSelection,
  type OfferStatisticsQuery,
  type RangeFilter,
  type StatisticsGroupResult,
} from './offer-statistics.js';
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

/** A metric's value of offer i: NaN where SQL has NULL (per m²: without a living area > 0). */
type MetricReader = (i: number) => number;

function metricReader(slice: DivisionSlice, metric: OfferMetric): MetricReader {
  const n = slice.numbers;
  const perSquareMeter = (price: Float64Array): MetricReader => {
    const area = n.living_area;
    return (i) => {
      const a = area[i] as number;
      return a > 0 ? (price[i] as number) / a : NaN;
    };
  };
  switch (metric) {
    case 'sale_price_per_square_meter':
      return perSquareMeter(n.sale_price);
    case 'rent_gross_per_square_meter':
      return perSquareMeter(n.rent_gross);
    case 'rent_net_per_square_meter':
      return perSquareMeter(n.rent_net);
    default: {
      const column = n[metric];
      return (i) => column[i] as number;
    }
  }
}

/** A test per condition of the selection; an offer is selected when it passes all. */
function conditionsOf(slice: DivisionSlice, selection: OfferSelection): ((i: number) => boolean)[] {
  const tests: ((i: number) => boolean)[] = [];
  if (selection.dealType !== undefined) {
    const code = DEAL_CODES[selection.dealType];
    tests.push((i) => slice.deal[i] === code);
  }
  if (selection.propertyType !== undefined) {
    const code = KIND_CODES[selection.propertyType];
    tests.push((i) => slice.kind[i] === code);
  }
  for (const [name, column] of FLAG_FILTERS) {
    const value = selection[name];
    if (value === undefined) continue;
    const flags = slice.flags[column];
    const code = value ? 1 : 0;
    tests.push((i) => flags[i] === code);
  }
  for (const [name, range] of Object.entries(selection.ranges ?? {})) {
    // The range filters' columns are columns of the slice, by the same names.
    const column = slice.numbers[RANGE_FILTERS[name as RangeFilter]];
    const { min, max } = range;
    // NaN (NULL) fails both comparisons, as NULL does in SQL.
    if (min !== undefined) tests.push((i) => (column[i] as number) >= min);
    if (max !== undefined) tests.push((i) => (column[i] as number) <= max);
  }
  const { first, last } = selection.months ?? {};
  if (first !== undefined) {
    const from = monthIndex(first);
    tests.push((i) => (slice.month[i] as number) >= from);
  }
  if (last !== undefined) {
    const to = monthIndex(last);
    tests.push((i) => (slice.month[i] as number) <= to);
  }
  if (selection.near) tests.push(withinRadius(slice, selection.near));
  return tests;
}

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** geo.ts withinRadius in code: the same bounding box, then the same haversine distance. */
function withinRadius(
  slice: DivisionSlice,
  near: NonNullable<OfferSelection['near']>,
): (i: number) => boolean {
  const { latitude: lat, longitude: lon } = near.point;
  const dLat = (near.radius / EARTH_RADIUS_M) * (180 / Math.PI);
  const cos = Math.max(Math.cos((lat * Math.PI) / 180), 1e-6);
  const dLon = Math.min(180, dLat / cos);
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

/** The selected offers' indexes, in slice order. */
function selectedOffers(slice: DivisionSlice, selection: OfferSelection): Int32Array {
  const tests = conditionsOf(slice, selection);
  const selected = new Int32Array(slice.length);
  let count = 0;
  outer: for (let i = 0; i < slice.length; i++) {
    for (const test of tests) if (!test(i)) continue outer;
    selected[count++] = i;
  }
  return selected.subarray(0, count);
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** The first day of the period holding a month index: DuckDB's date_trunc, as `YYYY-MM-DD`. */
function periodStart(month: number, step: number): string {
  const first = Math.floor(month / step) * step;
  const year = Math.floor(first / 12);
  return `${pad(year, 4)}-${pad(first - year * 12 + 1, 2)}-01`;
}

const MONTHS_PER = { month: 1, quarter: 3, year: 12 } as const;

/** The groups of the query with their offers' indexes (groups without offers left out). */
function groupsOf(
  slice: DivisionSlice,
  query: OfferStatisticsQuery,
  selected: Int32Array,
): { key: string; offers: Int32Array }[] {
  const { grouping } = query;
  if (grouping.by === 'all') return [{ key: 'all', offers: selected }];
  if (grouping.by === 'period') {
    const step = MONTHS_PER[grouping.period];
    const byKey = new Map<string, number[]>();
    for (const i of selected) {
      const key = periodStart(slice.month[i] as number, step);
      const list = byKey.get(key);
      if (list) list.push(i);
      else byKey.set(key, [i]);
    }
    return [...byKey].map(([key, list]) => ({ key, offers: Int32Array.from(list) }));
  }
  const value = metricReader(slice, grouping.metric);
  const groups: { key: string; offers: Int32Array }[] = [];
  grouping.ranges.forEach((range, g) => {
    const { lowerBound: lo, upperBound: hi } = range;
    const offers = selected.filter((i) => {
      const x = value(i);
      return !Number.isNaN(x) && (lo === undefined || x >= lo) && (hi === undefined || x < hi);
    });
    if (offers.length > 0) groups.push({ key: String(g), offers });
  });
  return groups;
}

/** One group's results: per metric its values (NULLs left out), then each statistic. */
function groupResult(
  slice: DivisionSlice,
  query: OfferStatisticsQuery,
  key: string,
  offers: Int32Array,
): StatisticsGroupResult {
  const samples = new Map<OfferMetric, Float64Array>();
  for (const metric of new Set(query.statistics.map((s) => s.metric))) {
    const read = metricReader(slice, metric);
    const values = new Float64Array(offers.length);
    let n = 0;
    for (const i of offers) {
      const x = read(i);
      if (!Number.isNaN(x)) values[n++] = x;
    }
    samples.set(metric, values.subarray(0, n));
  }
  const counts: Partial<Record<OfferMetric, number>> = {};
  if (query.grouping.by === 'value') {
    // The grouping metric is counted too, as the SQL counts every metric it reads.
    const read = metricReader(slice, query.grouping.metric);
    let n = 0;
    for (const i of offers) if (!Number.isNaN(read(i))) n++;
    counts[query.grouping.metric] = n;
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

/** The statistics of a query over one division's slice. */
export function sliceStatistics(
  slice: DivisionSlice,
  query: OfferStatisticsQuery,
): StatisticsGroupResult[] {
  const selected = selectedOffers(slice, query.selection);
  return groupsOf(slice, query, selected).map(({ key, offers }) =>
    groupResult(slice, query, key, offers),
  );
}
