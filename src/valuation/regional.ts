import type { DuckDBConnection } from '@duckdb/node-api';
import type { MonthStats } from './hedonic.js';
import { regionMonthStats, regionOf } from './model-sums.js';
import { cachedRegional, type Postcode, type SnapshotCache } from './snapshot-cache.js';
import type { DealType } from './types.js';

/**
 * Per-month sufficient statistics of all offers of the region, by deal type (the coefficients of
 * one deal type lean on those of both), cached per snapshot. The caller uses only months before
 * the valuation date's month, so an offer published after the date never reaches the index or
 * the coefficients.
 */
export function regionalStats(
  db: DuckDBConnection,
  cache: SnapshotCache,
  countryCode: string,
  postcode: Postcode,
): Promise<Record<DealType, MonthStats[]>> {
  const region = regionOf(postcode);
  const key = `${countryCode}|${region.kind}|${region.id}`;
  return cachedRegional(cache, key, async () => {
    const of = (deal: DealType) =>
      regionMonthStats(db, { countryCode, postcode, deal }, cache.hasModelSums);
    // One connection runs one query at a time: awaiting both in turn costs nothing extra.
    return { sale: await of('sale'), rent: await of('rent') };
  });
}
