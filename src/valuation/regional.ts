import type { DuckDBConnection } from '@duckdb/node-api';
import type { MonthStats } from './hedonic.js';
import { regionMonthStats, regionOf } from './model-sums.js';
import { cachedRegional, type Postcode, type SnapshotCache } from './snapshot-cache.js';
import type { DealType } from './types.js';

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
  const key = `${countryCode}|${region.kind}|${region.id}|${deal}`;
  return cachedRegional(cache, key, () =>
    regionMonthStats(db, { countryCode, postcode, deal }, cache.hasModelSums),
  );
}
