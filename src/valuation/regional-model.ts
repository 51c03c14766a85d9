import type { DuckDBConnection } from '@duckdb/node-api';
import { FEATURE_COUNT } from './features.js';
import { fitHedonic, RIDGE, type HedonicFit, type MonthStats } from './hedonic.js';
import {
  combineSums,
  postcodeLevels,
  postcodeMonthSums,
  residualSums,
  type Place,
  type PostcodeMonth,
} from './postcode-effects.js';
import { regionalStats, regionOf } from './regional.js';
import { cachedModel, type Postcode, type SnapshotCache } from './snapshot-cache.js';
import type { DealType } from './types.js';

/**
 * The regional model of a deal type as known before a month: log price per m² = month effect +
 * β·features + postcode level. It is what the comparables are adjusted with, and its own value
 * for the property is what their average is shrunk towards (estimate.ts).
 */
export interface RegionalModel {
  /** β and the month effects, net of the postcode levels of each month's offers. */
  fit: HedonicFit;
  /** The level effect of a postcode (0 for null, the region's level). */
  level(postcode: string | null): number;
}

export interface RegionalData {
  stats: Record<DealType, readonly MonthStats[]>;
  postcodes: Record<DealType, readonly PostcodeMonth[]>;
  /** Postcode centroids (the neighbourhood of a postcode's level). */
  places: ReadonlyMap<string, Place>;
}

const otherDeal = (deal: DealType): DealType => (deal === 'sale' ? 'rent' : 'sale');

/** Month effects minus the mean postcode level of each month's offers. */
function netOfLevels(
  fit: HedonicFit,
  rows: readonly PostcodeMonth[],
  level: (postcode: string) => number,
  beforeMonth: number,
): HedonicFit {
  const located = new Map<number, number>();
  for (const r of rows) {
    if (r.month >= beforeMonth) continue;
    located.set(r.month, (located.get(r.month) ?? 0) + r.n * level(r.postcode));
  }
  return {
    beta: fit.beta,
    months: fit.months.map((m) => ({ ...m, effect: m.effect - (located.get(m.month) ?? 0) / m.n })),
  };
}

/**
 * Fits the model of `deal` from the months before `beforeMonth`:
 * 1. β of both deal types together (a characteristic is worth about as much to a buyer as to a
 *    tenant) is the prior each deal type's β is pulled towards (ridge RIDGE);
 * 2. postcode levels from the residuals of both deal types (the other at OTHER_DEAL_WEIGHT);
 * 3. month effects net of the postcode levels of that month's offers: in a thin region, a month
 *    whose few offers happen to lie in dear postcodes would otherwise look like a price rise;
 * 4. the postcode levels again, around the netted month effects.
 */
export function fitRegionalModel(
  data: RegionalData,
  deal: DealType,
  beforeMonth: number,
): RegionalModel {
  const before = (s: MonthStats) => s.month < beforeMonth;
  const own = data.stats[deal].filter(before);
  const other = data.stats[otherDeal(deal)].filter(before);
  const prior = fitHedonic([...own, ...other], FEATURE_COUNT).beta;
  const first = fitHedonic(own, FEATURE_COUNT, RIDGE, prior);
  const otherSums = residualSums(
    data.postcodes[otherDeal(deal)],
    fitHedonic(other, FEATURE_COUNT, RIDGE, prior),
    beforeMonth,
  );
  const levelsOf = (fit: HedonicFit) =>
    postcodeLevels(
      combineSums(residualSums(data.postcodes[deal], fit, beforeMonth), otherSums),
      data.places,
    );
  const fit = netOfLevels(first, data.postcodes[deal], levelsOf(first), beforeMonth);
  return { fit, level: levelsOf(fit) };
}

/**
 * The regional model of the property's region for `deal` before `beforeMonth`, cached per
 * snapshot: the statistics come from two grouped queries per region (both deal types at once),
 * the fit is computed once per region, deal type and month.
 */
export function regionalModel(
  db: DuckDBConnection,
  cache: SnapshotCache,
  countryCode: string,
  postcode: Postcode,
  deal: DealType,
  beforeMonth: number,
): Promise<RegionalModel> {
  const region = regionOf(postcode);
  const key = `model|${countryCode}|${region?.column ?? 'country'}|${region?.id ?? ''}|${deal}|${beforeMonth}`;
  return cachedModel(cache, key, async () => {
    const stats = await regionalStats(db, cache, countryCode, postcode);
    const postcodes = await postcodeMonthSums(db, cache, countryCode, postcode);
    const places = cache.places.get(countryCode) ?? new Map<string, Place>();
    return fitRegionalModel({ stats, postcodes, places }, deal, beforeMonth);
  });
}
