import type { DuckDBConnection } from '@duckdb/node-api';
import type { Row } from '../market/duck.js';
import { FEATURE_COUNT, FEATURES } from './features.js';
import type { MonthStats } from './hedonic.js';
import { regionMonthRows, regionOf } from './model-sums.js';
import { cachedRegional, type Postcode, type SnapshotCache } from './snapshot-cache.js';
import type { DealType } from './types.js';

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
  const key = `${countryCode}|${region.kind}|${region.id}|${deal}`;
  return cachedRegional(cache, key, async () =>
    (await regionMonthRows(db, { countryCode, postcode, deal }, cache.hasModelSums)).map(toStats),
  );
}
