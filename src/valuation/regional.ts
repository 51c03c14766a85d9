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

/** The region of the price index and the hedonic fit: level 6, else level 8, else the country. */
export function regionOf(postcode: Postcode): { column: string; id: string } | undefined {
  if (postcode.level6 !== null) return { column: 'division_level6', id: postcode.level6 };
  if (postcode.level8 !== null) return { column: 'division_level8', id: postcode.level8 };
  return undefined;
}

function statsSql(deal: DealType, region: { column: string } | undefined): string {
  const price = PRICE_COLUMN[deal];
  const k = FEATURE_COUNT;
  const x = FEATURES.map((f, i) => `${f.sql} as x${i}`).join(', ');
  const sums: string[] = ['count(*)::integer as n', 'sum(y) as sy'];
  for (let i = 0; i < k; i++) sums.push(`sum(x${i}) as sx${i}`, `sum(x${i} * y) as sxy${i}`);
  for (let i = 0; i < k; i++)
    for (let j = i; j < k; j++) sums.push(`sum(x${i} * x${j}) as sxx${i}_${j}`);
  const where = region
    ? `country_code = $cc and ${region.column} = $region`
    : 'country_code = $cc and division_level6 is null and division_level8 is null';
  return `
    select month, ${sums.join(', ')} from (
      select ${MONTH_SQL} as month, ln(${price} / living_area) as y, ${x}
      from offers
      where ${where} and deal_type = '${deal}' and ${price} > 0
        and living_area between ${AREA_LIMITS.min} and ${AREA_LIMITS.max})
    group by month order by month`;
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

/**
 * Per-month sufficient statistics of all offers of the region and deal type, cached per
 * snapshot. The caller uses only months before the valuation date's month, so an offer published
 * after the date never reaches the index or the coefficients.
 */
export function regionalStats(
  db: DuckDBConnection,
  cache: SnapshotCache,
  countryCode: string,
  postcode: Postcode,
  deal: DealType,
): Promise<MonthStats[]> {
  const region = regionOf(postcode);
  const key = `${countryCode}|${region?.column ?? 'country'}|${region?.id ?? ''}|${deal}`;
  return cachedRegional(cache, key, async () => {
    const params: Record<string, string> = { cc: countryCode };
    if (region) params.region = region.id;
    const rows = await queryPrepared(db, statsSql(deal, region), params);
    return rows.map(toStats);
  });
}
