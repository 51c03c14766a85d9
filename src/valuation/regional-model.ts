import type { DuckDBConnection } from '@duckdb/node-api';
import { FEATURE_COUNT, FEATURES } from './features.js';
import { fitHedonic, RIDGE, type HedonicFit, type MonthStats } from './hedonic.js';
import { countryPoolSums } from './country-sums.js';
import { postcodeResiduals, regionOf, type SumsKey } from './model-sums.js';
import { fitCountry, pooledIndex, type CountryFit } from './pooled-index.js';
import {
  combineSums,
  postcodeLevels,
  residualMap,
  type Place,
  type ResidualSum,
} from './postcode-effects.js';
import { regionalStats } from './regional.js';
import {
  cachedModel,
  cachedRegional,
  type Postcode,
  type SnapshotCache,
} from './snapshot-cache.js';
import type { DealType } from './types.js';

/**
 * The regional model of a deal type as known before a month: log price per m² = month effect +
 * β·features + postcode level. It is what the comparables are adjusted with, and its own value
 * for the property is what their average is shrunk towards (estimate.ts).
 */
export interface RegionalModel {
  /** β and the month effects. */
  fit: HedonicFit;
  /** The level effect of a postcode (0 for null, the region's level). */
  level(postcode: string | null): number;
  /** Offers of houses with land of their own the fit saw, of both deal types. */
  housesWithLand: number;
  /** The smoothed price index at a month (pooled-index.ts); undefined without data. */
  index: (month: number) => number | undefined;
}

const HOUSE = FEATURES.findIndex((f) => f.name === 'house');
const NO_LAND = FEATURES.findIndex((f) => f.name === 'no_land');
// A renamed feature must not turn the land adjustment off unnoticed.
if (HOUSE < 0 || NO_LAND < 0) throw new Error('the features house and no_land are needed');

/** Houses with land in the month sums: houses less those without land. */
function housesWithLand(stats: readonly MonthStats[]): number {
  return stats.reduce((sum, s) => sum + (s.sumX[HOUSE] ?? 0) - (s.sumX[NO_LAND] ?? 0), 0);
}

/** What a region's model is fitted from: its month sums, and sums over its postcode months. */
export interface RegionalSource {
  stats: Record<DealType, readonly MonthStats[]>;
  /** Postcode centroids (the neighbourhood of a postcode's level). */
  places: ReadonlyMap<string, Place>;
  /** Per postcode: residuals of the deal type's offers around `fit` (months before `before`). */
  residuals(deal: DealType, fit: HedonicFit, before: number): Promise<Map<string, ResidualSum>>;
  /**
   * The country's β and month effects before `before` (pooled-index.ts); undefined where the
   * snapshot has no stored sums (the region's index and coefficients are then its own).
   */
  country(deal: DealType, before: number): Promise<CountryFit | undefined>;
}

const otherDeal = (deal: DealType): DealType => (deal === 'sale' ? 'rent' : 'sale');

/**
 * Fits the model of `deal` from the months before `beforeMonth`:
 * 1. β of both deal types together (a characteristic is worth about as much to a buyer as to a
 *    tenant) is the prior each deal type's β is pulled towards (ridge RIDGE); it is itself
 *    pulled towards the country's β (pooled-index.ts), so that what a thin region's offers do
 *    not measure rests on its country's offers rather than on zero;
 * 2. postcode levels from the residuals of both deal types (the other at OTHER_DEAL_WEIGHT).
 * The month effects are the region's as its offers give them. Taking them net of the postcode
 * levels of each month's offers (so that a month whose offers happen to lie in dear postcodes
 * does not look like a price rise) made valuations worse on real sales and no better on the
 * demo market (docs/valuation-measurements.md), and was removed.
 */
export async function fitRegionalModel(
  source: RegionalSource,
  deal: DealType,
  beforeMonth: number,
): Promise<RegionalModel> {
  const before = (s: MonthStats) => s.month < beforeMonth;
  const own = source.stats[deal].filter(before);
  const other = source.stats[otherDeal(deal)].filter(before);
  const country = await source.country(deal, beforeMonth);
  const prior = fitHedonic([...own, ...other], FEATURE_COUNT, RIDGE, country?.beta).beta;
  const fit = fitHedonic(own, FEATURE_COUNT, RIDGE, prior);
  const otherSums = await source.residuals(
    otherDeal(deal),
    fitHedonic(other, FEATURE_COUNT, RIDGE, prior),
    beforeMonth,
  );
  const ownSums = await source.residuals(deal, fit, beforeMonth);
  return {
    fit,
    index: pooledIndex(fit, country?.months),
    level: postcodeLevels(combineSums(ownSums, otherSums), source.places),
    housesWithLand: Math.round(housesWithLand([...own, ...other])),
  };
}

/**
 * The country's month effects before `beforeMonth`, cached per snapshot: its region-months are
 * read once per country and deal type, the effects fitted once per month and shared by its
 * regions.
 */
async function countryIndex(
  db: DuckDBConnection,
  cache: SnapshotCache,
  countryCode: string,
  deal: DealType,
  beforeMonth: number,
): Promise<CountryFit | undefined> {
  const pool = await cachedRegional(cache, `pool|${countryCode}|${deal}`, () =>
    countryPoolSums(db, countryCode, deal, cache.hasModelSums),
  );
  if (!pool) return undefined;
  return cachedModel(cache, `country|${countryCode}|${deal}|${String(beforeMonth)}`, () =>
    Promise.resolve(fitCountry(pool, beforeMonth)),
  );
}

/** The source of a region's model in a snapshot: the sums of model-sums.ts. */
function snapshotSource(
  db: DuckDBConnection,
  cache: SnapshotCache,
  countryCode: string,
  postcode: Postcode,
  stats: Record<DealType, readonly MonthStats[]>,
): RegionalSource {
  const key = (deal: DealType): SumsKey => ({ countryCode, postcode, deal });
  return {
    stats,
    places: cache.places.get(countryCode) ?? new Map<string, Place>(),
    residuals: async (deal, fit, before) =>
      residualMap(await postcodeResiduals(db, key(deal), cache.hasModelSums, fit, before)),
    country: (deal, before) => countryIndex(db, cache, countryCode, deal, before),
  };
}

/**
 * The regional model of the property's region for `deal` before `beforeMonth`, cached per
 * snapshot: the month sums are read once per region (both deal types), the postcode sums once
 * per region, deal type and month.
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
  const key = `model|${countryCode}|${region.kind}|${region.id}|${deal}|${String(beforeMonth)}`;
  return cachedModel(cache, key, async () => {
    const stats = await regionalStats(db, cache, countryCode, postcode);
    const source = snapshotSource(db, cache, countryCode, postcode, stats);
    return fitRegionalModel(source, deal, beforeMonth);
  });
}
