import { limits } from '../limits.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { MAIN_CURRENCY } from '../market/countries.js';
import { haversineMeters } from '../market/geo.js';
import {
  distinctListings,
  findComparables,
  MIN_COMPARABLES,
  ENOUGH_COMPARABLES,
  searchPlan,
  withinStep,
  type Comparable,
  type SearchStep,
} from './comparables.js';
import {
  centralEstimate,
  confidenceOf,
  forecastSd,
  rangeOf,
  type AdjustedComparable,
  type CentralEstimate,
} from './estimate.js';
import { monthIndex } from '../dates.js';
import {
  addressKeys,
  addressShift,
  addressVariation,
  beyondNeighbourhood,
  type AddressShift,
} from './address-effects.js';
import { InsufficientDataError } from './errors.js';
import { FEATURES } from './features.js';
import { localVariation } from './local-variance.js';
import { regionalModel, type RegionalModel } from './regional-model.js';
import { locate, snapshotCache, type Postcode, type SnapshotCache } from './snapshot-cache.js';
import type {
  BasisArea,
  DealType,
  Estimate,
  PropertyToValue,
  Valuation,
  ComparablesBasis,
  ValueProperty,
  ValueRange,
} from './types.js';

export interface EstimateOptions {
  /**
   * Last publication date of the offers used (default: the valuation date). The backtest sets
   * the day before the held-out offer's, so neither it nor anything later is used.
   */
  until?: string;
}

/** An estimate plus its forecast standard deviation (log scale), for the backtest. */
export interface DetailedEstimate extends Estimate {
  sd: number;
  /** The comparables' centre, spread and weight against the model. */
  central: CentralEstimate;
  /** τ of the property's region (local-variance.ts). */
  localSd: number;
  /** The street and building effects, where the property's address found offers. */
  address?: AddressShift;
}

/**
 * Meters from the nearest postcode centroid of its country beyond which a point is not valued:
 * the reach within which a dossier's coordinates are accepted (src/features/dossiers/validate.ts),
 * so that a point written is one that is valued.
 */
const MAX_POSTCODE_DISTANCE = limits.dossiers.countryReachKm * 1000;

/**
 * The adjustment of a comparable to the property: time, postcode level and the hedonic terms the
 * property states; and what the model says for the property as seen from the comparable (its
 * adjusted value minus its residual around the model).
 */
function adjust(
  comparables: readonly Comparable[],
  subject: (number | undefined)[],
  model: RegionalModel,
  targetMonth: number,
  radius: number | null,
  postcode: string,
): AdjustedComparable[] {
  const { fit, index } = model;
  const own = model.level(postcode);
  const target = index(targetMonth);
  return comparables.map((c) => {
    let y = c.y;
    const from = index(c.month);
    const level = model.level(c.postcode);
    if (target !== undefined && from !== undefined) y += target - from;
    y += own - level;
    subject.forEach((s, i) => {
      if (s !== undefined) y += (fit.beta[i] ?? 0) * (s - (c.x[i] ?? 0));
    });
    const residual =
      from === undefined
        ? undefined
        : c.y - from - level - fit.beta.reduce((sum, b, i) => sum + b * (c.x[i] ?? 0), 0);
    const age = Math.max(0, targetMonth - c.month);
    let weight = Math.exp(-age / 36);
    // An offer without coordinates (a division's, never a radius's) weighs as one at the edge.
    if (radius !== null) weight /= 1 + ((c.distance ?? radius) / (radius / 2)) ** 2;
    return target === undefined || residual === undefined
      ? { y, weight }
      : { y, weight, model: y - residual };
  });
}

/**
 * Houses with land a region's offers must hold before a property's land is adjusted for: with
 * fewer (most listings do not state land; the demo market has none) the land coefficient is
 * not measured, and a house's land is left to its comparables'.
 */
export const MIN_HOUSES_WITH_LAND = 30;

/** The property's feature values, undefined for every feature of a group it does not state. */
function subjectFeatures(
  property: PropertyToValue,
  year: number,
  model: RegionalModel,
): (number | undefined)[] {
  const values = FEATURES.map((f) => f.subject(property, year));
  const missing = new Set(FEATURES.filter((_, i) => values[i] === undefined).map((f) => f.group));
  if (model.housesWithLand < MIN_HOUSES_WITH_LAND) missing.add('land');
  return values.map((v, i) => (missing.has(FEATURES[i]?.group ?? 'area') ? undefined : v));
}

/** Months of offers in the property's street that count (moved to the date by the index). */
const ADDRESS_MONTHS = 60;

/** What the street and building step needs of the valuation so far. */
interface AddressContext {
  db: DuckDBConnection;
  cache: SnapshotCache;
  property: PropertyToValue;
  postcode: Postcode;
  deal: DealType;
  until: string;
  adjustToProperty: (found: readonly Comparable[]) => AdjustedComparable[];
  /** The comparables' log price per m². */
  center: number;
  /** τ of the neighbourhood where the comparables came from around the point, else 0. */
  neighbourhoodSd: number;
}

/** The street and building effects around the centre (address-effects.ts), if any apply. */
async function addressEffects(context: AddressContext): Promise<AddressShift | undefined> {
  const { db, cache, property, postcode, deal, until } = context;
  if (property.street === undefined && property.houseNumber === undefined) return undefined;
  const measured = await addressVariation(db, cache, property.countryCode, postcode, deal);
  if (!measured) return undefined;
  const variation = beyondNeighbourhood(measured, context.neighbourhoodSd);
  const keys = await addressKeys(db, property);
  if (keys.street === null) return undefined;
  const step: SearchStep = {
    widening: 0,
    months: ADDRESS_MONTHS,
    area: { kind: 'street', street: keys.street },
  };
  const found = distinctListings(
    await findComparables(db, property, postcode, deal, step, until),
    true,
  );
  if (found.length === 0) return undefined;
  const offers = context.adjustToProperty(found).map((o, i) => ({
    ...o,
    sameBuilding: keys.house !== null && found[i]?.house === keys.house,
  }));
  return addressShift(offers, context.center, variation);
}

/**
 * The single-offer spread of a region whose offers have no points: how far a single listing
 * lies from the mean of its own street (address-effects.ts, `streetSpread`). The comparables of
 * a whole postcode cannot place a listing closer than its street would, as those of a 200 m cell
 * cannot at points; their own spread understates it where many of them are alike (one new
 * building's flats). Vienna: `good` ranges resting on a postcode's or a street's offers held the
 * truth 37–47% of the time without it (README "Valuation model"). Where the building's own offers
 * moved the value, what they leave unexplained bounds the range instead (estimate.ts
 * `forecastSd`): those ranges held the truth 71% of the time, and the region's single-listing
 * scatter around a building's mean (0.10 in Vienna) would have made none of them `good`.
 * Undefined where the region's addresses measure nothing.
 */
async function addressSaleSpread(
  db: DuckDBConnection,
  cache: SnapshotCache,
  countryCode: string,
  postcode: Postcode,
  deal: DealType,
  address: AddressShift | undefined,
): Promise<number | undefined> {
  if (address && address.buildingOffers > 0) return undefined;
  const variation = await addressVariation(db, cache, countryCode, postcode, deal);
  return variation?.streetSpread;
}

function insufficient(property: PropertyToValue, deal: DealType): InsufficientDataError {
  return new InsufficientDataError(
    `too few comparable ${deal} offers of ${property.propertyType}s near this property to value it`,
  );
}

/** The widest radius searched before a division (comparables.ts `searchPlan`). */
const KERNEL_FLOOR_METERS = 5000;

/**
 * The distance scale of a division's comparables (a property at a point searched past 5 km): the
 * distance of the ENOUGH_COMPARABLES-th nearest, the radius a search would have needed. Null
 * where the comparables have no coordinates: then they weigh alike.
 */
export function kernelMeters(found: readonly Comparable[]): number | null {
  const distances = found
    .map((c) => c.distance)
    .filter((d): d is number => d !== null)
    .sort((a, b) => a - b);
  if (distances.length === 0) return null;
  return Math.max(
    KERNEL_FLOOR_METERS,
    distances[Math.min(ENOUGH_COMPARABLES, distances.length) - 1] ?? 0,
  );
}

/** Values the property for one deal type: the comparables of the narrowest step with enough. */
export async function estimateDeal(
  db: DuckDBConnection,
  property: PropertyToValue,
  deal: DealType,
  date: string,
  options: EstimateOptions = {},
): Promise<DetailedEstimate> {
  const cache = await snapshotCache(db);
  const postcode = locate(
    cache,
    property.countryCode,
    property.latitude,
    property.longitude,
    property.postalCode,
  );
  // A point far from every postcode of the country is outside the covered market. Measured to
  // the nearest centroid, looked up only when a stated postcode is centred farther away, and by
  // the haversine distance the write check of a dossier's point uses (nearCountry).
  const tooFar = (p: Postcode | undefined) =>
    !p ||
    haversineMeters(property.latitude, property.longitude, p.latitude, p.longitude) >
      MAX_POSTCODE_DISTANCE;
  if (
    !postcode ||
    (tooFar(postcode) &&
      tooFar(locate(cache, property.countryCode, property.latitude, property.longitude)))
  ) {
    throw new InsufficientDataError(
      `the point is more than ${String(limits.dossiers.countryReachKm)} km from every postcode ` +
        `of ${property.countryCode}: outside the market data`,
    );
  }
  const until = options.until ?? date;
  const targetMonth = monthIndex(date);
  const beforeMonth = Math.min(targetMonth, monthIndex(until));
  const model = await regionalModel(db, cache, property.countryCode, postcode, deal, beforeMonth);
  const subject = subjectFeatures(property, Number(date.slice(0, 4)), model);

  let best: { step: SearchStep; found: Comparable[] } | undefined;
  search: for (const query of searchPlan(property, postcode)) {
    const widest = query.steps[query.steps.length - 1];
    if (!widest || (query.lastResort && best)) continue;
    const found = distinctListings(
      await findComparables(db, property, postcode, deal, widest, until),
    );
    for (const step of query.steps) {
      const within = withinStep(found, step, monthIndex(until));
      if (within.length >= MIN_COMPARABLES && (!best || within.length > best.found.length))
        best = { step, found: within };
      if (within.length >= ENOUGH_COMPARABLES) {
        best = { step, found: within };
        break search;
      }
    }
  }
  if (!best) throw insufficient(property, deal);

  const radius = best.step.area.kind === 'radius' ? best.step.area.meters : null;
  // A property known only by its postcode is placed at its centroid: distances from there say
  // little, and its division's comparables weigh alike.
  const kernel =
    radius ?? (property.locationPrecision === 'exact' ? kernelMeters(best.found) : null);
  const local = await localVariation(db, cache, property.countryCode, postcode, deal);
  const adjustToProperty = (found: readonly Comparable[], within: number | null) =>
    adjust(found, subject, model, targetMonth, within, postcode.id);
  const central = centralEstimate(adjustToProperty(best.found, kernel), local.localSd);
  const address = await addressEffects({
    db,
    cache,
    property,
    postcode,
    deal,
    until,
    adjustToProperty: (found) => adjustToProperty(found, null),
    center: central.center,
    neighbourhoodSd: radius === null ? 0 : local.localSd,
  });
  const listingNoise = cache.listingNoise.get(deal) ?? 0;
  // Where neither the region nor its country measures a single offer's spread but the offers
  // have points (a thin sample: too few share a cell), every country's cells say how far single
  // offers scatter. Offers without points (Vienna's listings) take it from their addresses.
  const saleSpread =
    local.saleSpread ??
    (best.found.some((c) => c.distance !== null)
      ? local.everySaleSpread
      : await addressSaleSpread(db, cache, property.countryCode, postcode, deal, address));
  const sd = forecastSd(central, best.step.widening, listingNoise, saleSpread, address);
  const value = Math.exp(central.center + (address?.shift ?? 0)) * property.livingArea;
  return {
    value,
    range: rangeOf(value, sd),
    confidence: confidenceOf(sd),
    sd,
    central,
    localSd: local.localSd,
    ...(address ? { address } : {}),
    evidence: {
      comparables: central.used,
      area: basisArea(best.step.area),
      radiusMeters: radius,
      monthsBack: best.step.months,
      widening: best.step.widening,
    },
  };
}

/** Division columns as a reader names them. */
const DIVISION_AREAS = {
  division_level100: 'postcode',
  division_level8: 'municipality',
  division_level6: 'district',
} as const;

/** Where a step searched, as the valuation's basis names it (a street step is never the best). */
function basisArea(area: SearchStep['area']): BasisArea {
  return area.kind === 'division' ? DIVISION_AREAS[area.column] : 'radius';
}

/** The basis a caller sees: what the estimate rests on, without the search's internals. */
function basisOf({
  comparables,
  area,
  radiusMeters,
  monthsBack,
}: Estimate['evidence']): ComparablesBasis {
  return {
    comparables,
    area,
    ...(area === 'radius' && radiusMeters !== null ? { radiusMeters } : {}),
    months: monthsBack,
  };
}

/** Rounds money for display: whole units of rent, hundreds of a sale price. */
function money(value: number, deal: DealType): number {
  const step = deal === 'sale' ? 100 : 1;
  return Math.round(value / step) * step;
}

function moneyRange(range: ValueRange, deal: DealType): ValueRange {
  return { lower: money(range.lower, deal), upper: money(range.upper, deal) };
}

/** See ValueProperty (types.ts): the requested deal type, plus the sale value for a rent. */
export const valueProperty: ValueProperty = async (db, request): Promise<Valuation> => {
  const { property, dealType, date } = request;
  const main = await estimateDeal(db, property, dealType, date);
  const sale = dealType === 'sale' ? main : await estimateDeal(db, property, 'sale', date);
  return {
    confidence: main.confidence,
    basis: basisOf(main.evidence),
    coordinates: { latitude: property.latitude, longitude: property.longitude },
    currency: MAIN_CURRENCY[property.countryCode],
    value: money(main.value, dealType),
    valueRange: moneyRange(main.range, dealType),
    salePrice: money(sale.value, 'sale'),
    salePriceRange: moneyRange(sale.range, 'sale'),
  };
};
