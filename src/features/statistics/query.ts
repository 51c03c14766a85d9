import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { invalidField } from '../../http/field-errors.js';
import { queryPrepared, type Row } from '../../market/duck.js';
import { DIVISION_LEVELS, type DivisionLevel } from '../../market/countries.js';
import { withinRadius } from '../../market/geo.js';
import type { SnapshotView } from '../../market/market-store.js';
import { METRIC_SQL, type Metric } from './metrics.js';
import { periodsBetween } from './periods.js';
import {
  divisionFilter,
  type Filters,
  type StatisticItem,
  type StatisticsRequest,
  type StatisticsResponse,
} from './schemas.js';

type Params = Record<string, DuckDBValue>;

const RANGE_COLUMNS = {
  salePrice: 'sale_price',
  rentGross: 'rent_gross',
  livingArea: 'living_area',
  buildingYear: 'building_year',
  numberOfRooms: 'number_of_rooms',
  daysOnMarket: 'days_on_market',
} as const;

const FLAG_COLUMNS = {
  dealType: 'deal_type',
  propertyType: 'property_type',
  isActive: 'is_active',
  isNew: 'is_new',
  isPrivate: 'is_private',
  hasOpenKitchen: 'has_open_kitchen',
} as const;

function division(filters: Filters): { level: DivisionLevel; column: string; id: string } {
  for (const level of DIVISION_LEVELS) {
    const id = filters[divisionFilter(level)];
    if (id !== undefined) return { level, column: `division_level${level}`, id };
  }
  throw invalidField('/filters', 'must have exactly one division');
}

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

/** WHERE conditions of the filters; every value is a bound parameter. */
function whereClause(request: StatisticsRequest, params: Params): string {
  const { filters } = request;
  const where = ['country_code = $country'];
  params.country = request.countryCode;
  const d = division(filters);
  where.push(`${d.column} = $division`);
  params.division = d.id;
  for (const [name, column] of Object.entries(FLAG_COLUMNS)) {
    const value = filters[name as keyof typeof FLAG_COLUMNS];
    if (value !== undefined) {
      where.push(`${column} = $${name}`);
      params[name] = value;
    }
  }
  for (const [name, column] of Object.entries(RANGE_COLUMNS)) {
    const range = filters[name as keyof typeof RANGE_COLUMNS];
    if (range?.min !== undefined) {
      where.push(`${column} >= $${name}Min`);
      params[`${name}Min`] = range.min;
    }
    if (range?.max !== undefined) {
      where.push(`${column} <= $${name}Max`);
      params[`${name}Max`] = range.max;
    }
  }
  if (filters.startDate?.min !== undefined) {
    where.push('start_date >= $startMin::date');
    params.startMin = monthStart(filters.startDate.min);
  }
  if (filters.startDate?.max !== undefined) {
    where.push('start_date < $startEnd::date');
    params.startEnd = monthAfter(filters.startDate.max);
  }
  if (filters.coordinates && filters.radius !== undefined) {
    where.push(...withinRadius(filters.coordinates, filters.radius, params));
  }
  return where.join(' and ');
}

const metricColumn = (metric: Metric) => `m_${metric}`;

/** The aggregate for one requested statistic, plus the count that decides if it is reported. */
function aggregate(stat: StatisticItem, index: number, params: Params): string {
  const m = metricColumn(stat.metric);
  switch (stat.type) {
    case 'count':
      return `count(${m})`;
    case 'mean':
      return `avg(${m})`;
    case 'percentile':
      params[`p${index}`] = (stat.parameters?.percentileRank ?? 0) / 100;
      return `quantile_cont(${m}, $p${index}::double)`;
    case 'percentile_rank':
      params[`v${index}`] = stat.parameters?.percentileValue ?? 0;
      return `100.0 * count(${m}) filter (where ${m} <= $v${index}) / nullif(count(${m}), 0)`;
  }
}

interface Group {
  key: string;
  groupId?: string;
  groupLowerBound?: number;
  groupUpperBound?: number;
}

export interface StatisticsOptions {
  /** Fewer values than this in a group: mean, percentile and percentile rank are left out. */
  minSample: number;
}

function assertDivisionExists(view: SnapshotView, request: StatisticsRequest): void {
  const d = division(request.filters);
  if (!view.hasDivision(request.countryCode, d.level, d.id)) {
    throw invalidField(
      `/filters/${divisionFilter(d.level)}`,
      'is not a known division of the country',
      {
        code: 'unknown_division',
        detail: `Division ${d.id} of level ${d.level} is unknown for ${request.countryCode}`,
      },
    );
  }
}

/** The one SQL query a request becomes, with its bound values and the groups it answers. */
export interface StatisticsQuery {
  sql: string;
  params: Params;
  groups: Group[];
}

/** Builds the single query of a request; values are bound parameters, never SQL text. */
export function statisticsQuery(request: StatisticsRequest): StatisticsQuery {
  const params: Params = {};
  const where = whereClause(request, params);
  const metrics = new Set<Metric>(request.statistics.map((s) => s.metric));
  const { groupBy } = request;
  if (groupBy && groupBy.field !== 'start_date') metrics.add(groupBy.field);
  const columns = [...metrics].map((m) => `${METRIC_SQL[m]} as ${metricColumn(m)}`);

  const selects = request.statistics.map((s, i) => `${aggregate(s, i, params)} as s${i}`);
  const counts = [...metrics].map((m) => `count(${metricColumn(m)}) as n_${m}`);
  let groups: Group[];
  let sql: string;
  if (!groupBy) {
    groups = [{ key: 'all' }];
    sql = `select 'all' as g, ${[...selects, ...counts].join(', ')} from base`;
  } else if (groupBy.field === 'start_date') {
    const slots = periodsBetween(
      request.filters.startDate?.min ?? '',
      request.filters.startDate?.max ?? '',
      groupBy.period ?? 'month',
    );
    groups = slots.map((s) => ({ key: s.start, groupId: s.id }));
    columns.push(
      `strftime(date_trunc('${groupBy.period ?? 'month'}', start_date), '%Y-%m-%d') as g`,
    );
    sql = `select g, ${[...selects, ...counts].join(', ')} from base group by g`;
  } else {
    const ranges = groupBy.groups ?? [];
    groups = ranges.map((r, i) => ({
      key: String(i),
      groupId: String(i),
      ...(r.lowerBound !== undefined ? { groupLowerBound: r.lowerBound } : {}),
      ...(r.upperBound !== undefined ? { groupUpperBound: r.upperBound } : {}),
    }));
    const values = ranges
      .map((r, i) => {
        params[`lo${i}`] = r.lowerBound ?? null;
        params[`hi${i}`] = r.upperBound ?? null;
        return `('${i}', $lo${i}::double, $hi${i}::double)`;
      })
      .join(', ');
    const x = metricColumn(groupBy.field);
    sql = `select grp.g, ${[...selects, ...counts].join(', ')}
      from base join (values ${values}) as grp(g, lo, hi)
        on (grp.lo is null or ${x} >= grp.lo) and (grp.hi is null or ${x} < grp.hi)
      group by grp.g`;
  }
  return {
    sql: `with base as (select ${columns.join(', ')} from offers where ${where}) ${sql}`,
    params,
    groups,
  };
}

/** Computes the statistics of one request in a single query over the division's offers. */
export async function computeStatistics(
  db: DuckDBConnection,
  view: SnapshotView,
  request: StatisticsRequest,
  options: StatisticsOptions,
): Promise<StatisticsResponse> {
  assertDivisionExists(view, request);
  const { sql, params, groups } = statisticsQuery(request);
  const rows = await queryPrepared(db, sql, params);
  const byKey = new Map<string, Row>(rows.map((r) => [String(r.g), r]));

  return {
    items: groups.map(({ key, ...group }) => {
      const row = byKey.get(key);
      return {
        ...group,
        statistics: request.statistics.map((stat, i) => {
          const n = Number(row?.[`n_${stat.metric}`] ?? 0);
          const value =
            stat.type === 'count' ? n : n >= options.minSample ? row?.[`s${i}`] : undefined;
          return {
            type: stat.type,
            metric: stat.metric,
            ...(stat.parameters ? { parameters: stat.parameters } : {}),
            ...(value !== undefined && value !== null ? { value: Number(value) } : {}),
          };
        }),
      };
    }),
  };
}
