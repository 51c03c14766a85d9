import type { DuckDBConnection } from '@duckdb/node-api';
import { queryPrepared, type Row } from '../market/duck.js';
import { FEATURE_COUNT, FEATURES } from './features.js';
import type { MonthStats } from './hedonic.js';
import { cachedRegional, type Postcode, type SnapshotCache } from './snapshot-cache.js';
import type { DealType } from './types.js';

/** The price column of a deal type: sale price, or monthly gross rent. */
export const PRICE_COLUMN: Record<DealType, string> = { sale: 'sale_price', rent: 'rent_gross' };

/** Offers outside these sizes are not used (data errors, rooms, whole buildings). */
export const AREA_LIMITS = { min: 10, max: 2000 } as const;

export const MONTH_SQL = '(year(start_date) * 12 + month(start_date) - 1)';

/** The price of an offer row in its own deal type. */
const DEAL_PRICE_SQL = "(case deal_type when 'sale' then sale_price else rent_gross end)";

/** Log price per m² of an offer row in its own deal type. */
export const LOG_PRICE_SQL = `ln(${DEAL_PRICE_SQL} / living_area)`;

/** Offers the regional model learns from: priced in their deal type, of a plausible size. */
export const PRICED_SQL = `deal_type in ('sale', 'rent') and ${DEAL_PRICE_SQL} > 0
        and living_area between ${AREA_LIMITS.min} and ${AREA_LIMITS.max}`;

/** The SQL condition selecting the offers of a region (see `regionOf`). */
export function regionWhere(region: { column: string } | undefined): string {
  return region
    ? `country_code = $cc and ${region.column} = $region`
    : 'country_code = $cc and division_level6 is null and division_level8 is null';
}

/** The region of the price index and the hedonic fit: level 6, else level 8, else the country. */
export function regionOf(postcode: Postcode): { column: string; id: string } | undefined {
  if (postcode.level6 !== null) return { column: 'division_level6', id: postcode.level6 };
  if (postcode.level8 !== null) return { column: 'division_level8', id: postcode.level8 };
  return undefined;
}

function statsSql(region: { column: string } | undefined): string {
  const k = FEATURE_COUNT;
  const x = FEATURES.map((f, i) => `${f.sql} as x${i}`).join(', ');
  const sums: string[] = ['count(*)::integer as n', 'sum(y) as sy'];
  for (let i = 0; i < k; i++) sums.push(`sum(x${i}) as sx${i}`, `sum(x${i} * y) as sxy${i}`);
  for (let i = 0; i < k; i++)
    for (let j = i; j < k; j++) sums.push(`sum(x${i} * x${j}) as sxx${i}_${j}`);
  return `
    select deal_type, month, ${sums.join(', ')} from (
      select deal_type, ${MONTH_SQL} as month, ${LOG_PRICE_SQL} as y, ${x}
      from offers
      where ${regionWhere(region)} and ${PRICED_SQL})
    group by deal_type, month order by deal_type, month`;
}

function toStats(r: Row): MonthStats {
  const k = FEATURE_COUNT;
  const sumXX = new Array<number>(k * k).fill(0);
  for (let i = 0; i < k; i++)
    for (let j = i; j < k; j++) {
      const v = Number(r[`sxx${i}_${j}`] ?? 0);
      sumXX[i * k + j] = v;
      sumXX[j * k + i] = v;
    }
  return {
    month: Number(r.month),
    n: Number(r.n),
    sumY: Number(r.sy),
    sumX: FEATURES.map((_, i) => Number(r[`sx${i}`] ?? 0)),
    sumXY: FEATURES.map((_, i) => Number(r[`sxy${i}`] ?? 0)),
    sumXX,
  };
}

/** Rows of a query grouped by `deal_type`, split by deal type. */
export function byDeal<T>(rows: readonly Row[], map: (r: Row) => T): Record<DealType, T[]> {
  const out: Record<DealType, T[]> = { sale: [], rent: [] };
  for (const r of rows) out[r.deal_type === 'rent' ? 'rent' : 'sale'].push(map(r));
  return out;
}

/**
 * Per-month sufficient statistics of all offers of the region, by deal type, cached per
 * snapshot: one grouped query reads the region once for both deal types (the coefficients of one
 * lean on those of both). The caller uses only months before the valuation date's month, so an
 * offer published after the date never reaches the index or the coefficients.
 */
export function regionalStats(
  db: DuckDBConnection,
  cache: SnapshotCache,
  countryCode: string,
  postcode: Postcode,
): Promise<Record<DealType, MonthStats[]>> {
  const region = regionOf(postcode);
  const key = `${countryCode}|${region?.column ?? 'country'}|${region?.id ?? ''}`;
  return cachedRegional(cache, key, async () => {
    const params: Record<string, string> = { cc: countryCode };
    if (region) params.region = region.id;
    const rows = await queryPrepared(db, statsSql(region), params);
    return byDeal(rows, toStats);
  });
}
