import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { CountryCode, DivisionLevel } from '../countries.js';
import { queryPrepared, type Row } from '../duck.js';
import { withinRadius } from '../geo.js';
import type { DEAL_TYPES, PROPERTY_TYPES } from '../schema.js';
import { perSquareMeterSql } from './offer-columns.js';
import type { SnapshotView } from '../market-store.js';
import type { Period } from './periods.js';
import { sliceStatistics } from './slice-statistics.js';
import { limits } from '../../limits.js';
import { Pacer } from '../../work/pacer.js';

/** What a statistic can be computed over: offer columns and prices per m². */
export const OFFER_METRICS = [
  'sale_price',
  'sale_price_per_square_meter',
  'rent_gross',
  'rent_gross_per_square_meter',
  'rent_net',
  'rent_net_per_square_meter',
  'living_area',
  'number_of_rooms',
  'days_on_market',
  'number_of_bedrooms',
] as const;
export type OfferMetric = (typeof OFFER_METRICS)[number];

export const STATISTIC_TYPES = ['mean', 'count', 'percentile', 'percentile_rank'] as const;
export type StatisticType = (typeof STATISTIC_TYPES)[number];

/**
 * Each metric as a SQL expression over the offers table; null where the offer has no value, so
 * that aggregates leave it out. Per-m² metrics need a living area above 0.
 */
const METRIC_SQL: Record<OfferMetric, string> = {
  sale_price: 'sale_price',
  sale_price_per_square_meter: perSquareMeterSql('sale_price'),
  rent_gross: 'rent_gross',
  rent_gross_per_square_meter: perSquareMeterSql('rent_gross'),
  rent_net: 'rent_net',
  rent_net_per_square_meter: perSquareMeterSql('rent_net'),
  living_area: 'living_area',
  number_of_rooms: 'number_of_rooms',
  days_on_market: 'days_on_market',
  number_of_bedrooms: 'number_of_bedrooms',
};

/** Filters keeping offers whose column lies within a range, both ends included. */
export const RANGE_FILTERS = {
  salePrice: 'sale_price',
  rentGross: 'rent_gross',
  livingArea: 'living_area',
  buildingYear: 'building_year',
  numberOfRooms: 'number_of_rooms',
  daysOnMarket: 'days_on_market',
} as const;
export type RangeFilter = keyof typeof RANGE_FILTERS;

/** Filters keeping offers whose column has the value. */
const EQUALITY_FILTERS = {
  dealType: 'deal_type',
  propertyType: 'property_type',
  isActive: 'is_active',
  isNew: 'is_new',
  isPrivate: 'is_private',
  hasOpenKitchen: 'has_open_kitchen',
} as const;

/** The offers a statistic is computed over: one division, narrowed by the other filters. */
export interface OfferSelection {
  countryCode: CountryCode;
  division: { level: DivisionLevel; id: string };
  dealType?: (typeof DEAL_TYPES)[number];
  propertyType?: (typeof PROPERTY_TYPES)[number];
  isActive?: boolean;
  isNew?: boolean;
  isPrivate?: boolean;
  hasOpenKitchen?: boolean;
  ranges?: Partial<Record<RangeFilter, { min?: number; max?: number }>>;
  /** First publication month, `YYYY-MM`, both ends included. */
  months?: { first?: string; last?: string };
  near?: { point: { latitude: number; longitude: number }; radius: number };
}

export interface OfferStatistic {
  type: StatisticType;
  metric: OfferMetric;
  /** For `percentile`: which one, 0–100. */
  percentileRank?: number;
  /** For `percentile_rank`: the value to rank. */
  percentileValue?: number;
}

/** How the offers are grouped: all together, by publication period, or by value ranges. */
export type OfferGrouping =
  | { by: 'all' }
  | { by: 'period'; period: Period }
  | {
      by: 'value';
      metric: OfferMetric;
      /** Lower bound included, upper bound excluded; either may be open. */
      ranges: readonly { lowerBound?: number; upperBound?: number }[];
    };

export interface OfferStatisticsQuery {
  selection: OfferSelection;
  statistics: readonly OfferStatistic[];
  grouping: OfferGrouping;
}

/**
 * One group's results: `key` is `all`, the period's first day (`YYYY-MM-DD`) or the range's
 * index; per metric the number of offers with a value; per statistic its value (null where the
 * group has no value for it). Groups without offers are absent.
 */
export interface StatisticsGroupResult {
  key: string;
  counts: Partial<Record<OfferMetric, number>>;
  values: (number | null)[];
}

type Params = Record<string, DuckDBValue>;

const monthStart = (month: string) => `${month}-01`;
// Not addMonths: after 9999-12 comes 10000-01-01, which DuckDB reads but an ISO string would
// write as +010000-01-01.
function monthAfter(month: string): string {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12
    ? `${year + 1}-01-01`
    : `${String(year).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-01`;
}

/** WHERE conditions of the selection; every value is a bound parameter. */
function whereClause(selection: OfferSelection, params: Params): string {
  const where = [
    'country_code = $country',
    `division_level${selection.division.level} = $division`,
  ];
  params.country = selection.countryCode;
  params.division = selection.division.id;
  for (const [name, column] of Object.entries(EQUALITY_FILTERS)) {
    const value = selection[name as keyof typeof EQUALITY_FILTERS];
    if (value !== undefined) {
      where.push(`${column} = $${name}`);
      params[name] = value;
    }
  }
  for (const [name, column] of Object.entries(RANGE_FILTERS)) {
    const range = selection.ranges?.[name as RangeFilter];
    // A range without bounds still asks for a value: an offer without one passes no range.
    if (range && range.min === undefined && range.max === undefined) {
      where.push(`${column} is not null`);
    }
    if (range?.min !== undefined) {
      where.push(`${column} >= $${name}Min`);
      params[`${name}Min`] = range.min;
    }
    if (range?.max !== undefined) {
      where.push(`${column} <= $${name}Max`);
      params[`${name}Max`] = range.max;
    }
  }
  if (selection.months?.first !== undefined) {
    where.push('start_date >= $startMin::date');
    params.startMin = monthStart(selection.months.first);
  }
  if (selection.months?.last !== undefined) {
    where.push('start_date < $startEnd::date');
    params.startEnd = monthAfter(selection.months.last);
  }
  if (selection.near) {
    where.push(...withinRadius(selection.near.point, selection.near.radius, params));
  }
  return where.join(' and ');
}

const metricColumn = (metric: OfferMetric) => `m_${metric}`;

/** The aggregate of one statistic. */
function aggregate(stat: OfferStatistic, index: number, params: Params): string {
  const m = metricColumn(stat.metric);
  switch (stat.type) {
    case 'count':
      return `count(${m})`;
    case 'mean':
      return `avg(${m})`;
    case 'percentile':
      params[`p${index}`] = (stat.percentileRank ?? 0) / 100;
      return `quantile_cont(${m}, $p${index}::double)`;
    case 'percentile_rank':
      params[`v${index}`] = stat.percentileValue ?? 0;
      return `100.0 * count(${m}) filter (where ${m} <= $v${index}) / nullif(count(${m}), 0)`;
  }
}

/** The metrics a query reads: those of its statistics and of its value grouping. */
function metricsOf(query: OfferStatisticsQuery): OfferMetric[] {
  const metrics = new Set(query.statistics.map((s) => s.metric));
  if (query.grouping.by === 'value') metrics.add(query.grouping.metric);
  return [...metrics];
}

/** The single SQL query of a statistics query; values are bound parameters, never SQL text. */
export function offerStatisticsSql(query: OfferStatisticsQuery): { sql: string; params: Params } {
  const params: Params = {};
  const where = whereClause(query.selection, params);
  const metrics = metricsOf(query);
  const columns = metrics.map((m) => `${METRIC_SQL[m]} as ${metricColumn(m)}`);
  const selects = query.statistics.map((s, i) => `${aggregate(s, i, params)} as s${i}`);
  const counts = metrics.map((m) => `count(${metricColumn(m)}) as n_${m}`);
  const outputs = [...selects, ...counts].join(', ');
  const { grouping } = query;
  let sql: string;
  if (grouping.by === 'all') {
    sql = `select 'all' as g, ${outputs} from base`;
  } else if (grouping.by === 'period') {
    // The period is one of three fixed words, not a request value.
    columns.push(`strftime(date_trunc('${grouping.period}', start_date), '%Y-%m-%d') as g`);
    sql = `select g, ${outputs} from base group by g`;
  } else {
    const values = grouping.ranges
      .map((r, i) => {
        params[`lo${i}`] = r.lowerBound ?? null;
        params[`hi${i}`] = r.upperBound ?? null;
        return `('${i}', $lo${i}::double, $hi${i}::double)`;
      })
      .join(', ');
    const x = metricColumn(grouping.metric);
    sql = `select grp.g, ${outputs}
      from base join (values ${values}) as grp(g, lo, hi)
        on (grp.lo is null or ${x} >= grp.lo) and (grp.hi is null or ${x} < grp.hi)
      group by grp.g`;
  }
  return {
    sql: `with base as (select ${columns.join(', ')} from offers where ${where}) ${sql}`,
    params,
  };
}

function toGroup(
  row: Row,
  query: OfferStatisticsQuery,
  metrics: OfferMetric[],
): StatisticsGroupResult {
  return {
    key: String(row.g),
    counts: Object.fromEntries(metrics.map((m) => [m, Number(row[`n_${m}`] ?? 0)])),
    values: query.statistics.map((_, i) => {
      const value = row[`s${i}`];
      return value === null || value === undefined ? null : Number(value);
    }),
  };
}

/**
 * Computes a statistics query: on the division's slice in memory when it fits the snapshot's
 * slice budget, else in one statement over the division's offers.
 */
export async function computeOfferStatistics(
  db: DuckDBConnection,
  view: Pick<SnapshotView, 'divisionSlice' | 'signal'>,
  query: OfferStatisticsQuery,
): Promise<StatisticsGroupResult[]> {
  const { countryCode, division } = query.selection;
  const slice = await view.divisionSlice({ countryCode, ...division });
  if (!slice) return sqlOfferStatistics(db, query);
  // In memory, the deadline that interrupts DuckDB stops the computation at its next pause.
  return sliceStatistics(slice, query, new Pacer(limits.statistics.sliceTurnMs, view.signal));
}

/** Computes a statistics query in one statement over the division's offers. */
export async function sqlOfferStatistics(
  db: DuckDBConnection,
  query: OfferStatisticsQuery,
): Promise<StatisticsGroupResult[]> {
  const { sql, params } = offerStatisticsSql(query);
  const rows = await queryPrepared(db, sql, params);
  const metrics = metricsOf(query);
  return rows.map((row) => toGroup(row, query, metrics));
}
