import type { DuckDBConnection } from '@duckdb/node-api';
import { databaseIdentity, queryPrepared, type Row } from '../market/duck.js';
import { isoDay, monthIndex } from '../dates.js';
import { radiusBox } from '../market/geo.js';
import { PRICE_COLUMN } from '../market/queries/offer-columns.js';
import { FEATURE_COLUMNS, FEATURES, featureRow } from './features.js';
import { AREA_LIMITS, REGION_FILTER_SQL, regionOf, type RegionKind } from './model-sums.js';
import { distanceMeters, type Postcode } from './snapshot-cache.js';
import type { DealType, PropertyToValue } from './types.js';
import { numberOrNull, textOrNull } from '../market/queries/values.js';
import { placeTiles, type PlacedOffer, type RadiusSearch } from './place-tiles.js';

export interface Comparable {
  /** Log price per m². */
  y: number;
  x: number[];
  month: number;
  /** Meters from the property; null when the offer has no coordinates. */
  distance: number | null;
  /** The offer's postcode (level-100 division), for the postcode level effect. */
  postcode: string | null;
  /** The offer's house key (src/market/address-key.ts), read only by a street search. */
  house?: string | null;
}

/**
 * One offer per listing: a flat advertised again (the same point — coordinates, or a house key
 * where the search reads it — with the same price per m² and features) is one piece of
 * evidence, not several; the latest one is kept. Counted as several, re-listings made a
 * building's few offers look like many that agree (the building moved the value too far, its
 * range was too narrow) and weighed one flat as many. An offer known only by its postcode has
 * no point: two such offers alike in every figure may be different flats, and both are kept.
 * Vienna: 11.1% → 11.0% MdAPE, `good` ranges holding the truth 58% → 63% of the time, with the
 * same rule in the measured variances (local-variance.ts).
 */
export function distinctListings(found: readonly Comparable[], oneStreet = false): Comparable[] {
  const latest = new Map<string, Comparable>();
  for (const c of found) {
    const key = listingKey(c, oneStreet);
    const seen = key === undefined ? undefined : latest.get(key);
    if (key !== undefined && (!seen || c.month > seen.month)) latest.set(key, c);
  }
  // Each listing where its first copy was (nearest first stays nearest first).
  const placed = new Set<string>();
  return found.flatMap((c) => {
    const key = listingKey(c, oneStreet);
    if (key === undefined) return [c];
    if (placed.has(key)) return [];
    placed.add(key);
    return [latest.get(key) ?? c];
  });
}

/**
 * Undefined for an offer without a point: it is never taken for another's copy. The offers of a
 * street search (`oneStreet`) share their street: alike in every figure there, they are one
 * flat advertised again far more often than two flats (Vienna: counting each such offer took
 * the street-only cases from 11.8% to 12.2% MdAPE).
 */
function listingKey(c: Comparable, oneStreet: boolean): string | undefined {
  if (!oneStreet && c.house == null && c.distance === null) return undefined;
  const point = `${c.postcode ?? ''}|${c.house ?? ''}|${String(c.distance)}`;
  return `${point}|${String(c.y)}|${c.x.join(',')}`;
}

/** One step of the search: where, how far back, and how widened it is. */
export interface SearchStep {
  widening: number;
  months: number;
  /**
   * Meters around the point, or a division of the property. A radius stays inside the property's
   * region (model-sums.ts `regionOf`), whose index, coefficients and postcode levels adjust the
   * comparables, unless `anyRegion` (the last resort where the region has too few).
   */
  area:
    | { kind: 'radius'; meters: number; anyRegion?: boolean }
    | { kind: 'division'; column: 'division_level100' | 'division_level8' | 'division_level6' }
    /** The offers of one street (street key) in the property's postcode: address-effects.ts. */
    | { kind: 'street'; street: string };
}

/** Comparables enough to stop widening; fewer than the minimum anywhere: no value. */
export const ENOUGH_COMPARABLES = 12;
export const MIN_COMPARABLES = 4;
/** Comparables per query, nearest (or newest) first. */
const QUERY_LIMIT = 300;
/** Comparables' living area within this factor of the property's (hedonics adjust the rest). */
export const AREA_FACTOR = 1.6;

/** A query and the steps it serves: the widest step's area and time, narrower ones filtered in memory. */
interface SearchQuery {
  steps: SearchStep[];
  /** Searched only when every query before found too few comparables. */
  lastResort?: boolean;
}

type DivisionColumn = 'division_level100' | 'division_level8' | 'division_level6';

function divisionStep(
  postcode: Postcode,
  widening: number,
  months: number,
  column: DivisionColumn,
): SearchStep | undefined {
  const id =
    column === 'division_level100'
      ? postcode.id
      : column === 'division_level8'
        ? postcode.level8
        : postcode.level6;
  return id === null ? undefined : { widening, months, area: { kind: 'division', column } };
}

/**
 * The search plan: radius first, then time, then the division. A property known only by its
 * postcode is searched by postcode, then by its district.
 */
export function searchPlan(property: PropertyToValue, postcode: Postcode): SearchQuery[] {
  const radius = (widening: number, meters: number, months: number): SearchStep => ({
    widening,
    months,
    area: { kind: 'radius', meters },
  });
  const queries: (SearchStep | undefined)[][] =
    property.locationPrecision === 'exact'
      ? [
          // 500 m and 1 km are separate queries: where offers are dense the first suffices and
          // reads a quarter of the area.
          [radius(0, 500, 24)],
          [radius(1, 1000, 24)],
          [radius(2, 2500, 24), radius(3, 5000, 24), radius(4, 5000, 60)],
          // Past 5 km the municipality, then the district: thin markets still get a value,
          // with the low confidence the widening brings. Last, 5 km across the region's boundary.
          [divisionStep(postcode, 5, 60, 'division_level8')],
          [divisionStep(postcode, 6, 60, 'division_level6')],
          [{ widening: 6, months: 60, area: { kind: 'radius', meters: 5000, anyRegion: true } }],
        ]
      : [
          [divisionStep(postcode, 1, 24, 'division_level100')],
          [divisionStep(postcode, 2, 60, 'division_level100')],
          [
            divisionStep(postcode, 4, 24, 'division_level8'),
            divisionStep(postcode, 5, 60, 'division_level8'),
          ],
          [divisionStep(postcode, 6, 60, 'division_level6')],
        ];
  return queries
    .map((steps) => ({
      steps: steps.filter((s): s is SearchStep => s !== undefined),
      // The whole district, and the radius across the region's boundary, are only fallbacks:
      // nearer comparables of the region, even fewer, are better.
      lastResort: steps.every(
        (s) =>
          (s?.area.kind === 'division' && s.area.column === 'division_level6') ||
          (s?.area.kind === 'radius' && s.area.anyRegion === true),
      ),
    }))
    .filter((q) => q.steps.length > 0);
}

/**
 * The comparables query. Its radius search is also answered from memory (place-tiles.ts
 * `nearestInTiles`, up to TILED_RADIUS_METERS): a filter or order changed here changes there.
 */
function querySql(
  deal: DealType,
  step: SearchStep,
  region: RegionKind,
  nearestFirst: boolean,
): string {
  const price = PRICE_COLUMN[deal];
  const inRegion = ` and ${REGION_FILTER_SQL[region]}`;
  const where =
    step.area.kind === 'radius'
      ? `latitude between $lat0 and $lat1 and longitude between $lon0 and $lon1${step.area.anyRegion ? '' : inRegion}`
      : step.area.kind === 'street'
        ? 'division_level100 = $division and street_key = $street'
        : `${step.area.column} = $division`;
  // Products, as place-tiles.ts computes them; offers at the same distance by their row.
  const distance =
    '(latitude - $lat) * (latitude - $lat) + ((longitude - $lon) * $coslat) * ((longitude - $lon) * $coslat)';
  const order =
    step.area.kind === 'radius'
      ? `${distance}, rowid`
      : nearestFirst
        ? `${distance} nulls last, start_date desc, id`
        : 'start_date desc, id';
  // Radius searches read the copy of the offers ordered by place (see PLACE_INDEX_SQL).
  const table = step.area.kind === 'radius' ? 'offers_by_place' : 'offers';
  return `
    select ln(${price} / living_area) as y, ${FEATURE_COLUMNS.join(', ')},
      latitude, longitude, division_level100${step.area.kind === 'street' ? ', house_key' : ''}
    from ${table}
    where country_code = $cc and ${where} and deal_type = '${deal}' and property_type = $type
      and start_date between $since and $until and ${price} > 0
      and living_area between $amin and $amax
    order by ${order} limit ${QUERY_LIMIT}`;
}

/** Radius searches up to this many meters read the tiles in memory (place-tiles.ts). */
export const TILED_RADIUS_METERS = 1000;

/** An offer of the query's result, as the tiles give it. */
function placedOfRow(r: Row): PlacedOffer {
  return {
    y: Number(r.y),
    facts: featureRow(r),
    latitude: numberOrNull(r.latitude),
    longitude: numberOrNull(r.longitude),
    postcode: textOrNull(r.division_level100),
  };
}

/**
 * The tiles' answer to a radius search of up to TILED_RADIUS_METERS on a snapshot file; undefined
 * where the query must answer (place-tiles.ts).
 */
async function fromTiles(
  db: DuckDBConnection,
  property: PropertyToValue,
  deal: DealType,
  step: SearchStep,
  search: RadiusSearch,
): Promise<PlacedOffer[] | undefined> {
  if (step.area.kind !== 'radius' || step.area.meters > TILED_RADIUS_METERS) return undefined;
  const identity = await databaseIdentity(db);
  if (identity.readOnlyFile === null) return undefined;
  const group = {
    snapshot: identity.name,
    countryCode: property.countryCode,
    deal,
    propertyType: property.propertyType,
  };
  return placeTiles.search(db, group, search);
}

/**
 * Finds the comparables of `step` (the widest step of a query): from the tiles in memory where
 * they answer, else by its query.
 */
export async function findComparables(
  db: DuckDBConnection,
  property: PropertyToValue,
  postcode: Postcode,
  deal: DealType,
  step: SearchStep,
  until: string,
  options: { tiles?: boolean } = {},
): Promise<Comparable[]> {
  const untilDay = Date.parse(`${until}T00:00:00Z`) / 86_400_000;
  const sinceDay = untilDay - Math.round(step.months * 30.44);
  const params: Record<string, string | number> = {
    cc: property.countryCode,
    type: property.propertyType,
    since: isoDay(new Date(sinceDay * 86_400_000)),
    until,
    amin: Math.max(AREA_LIMITS.min, property.livingArea / AREA_FACTOR),
    amax: Math.min(AREA_LIMITS.max, property.livingArea * AREA_FACTOR),
  };
  const { latitude: lat, longitude: lon } = property;
  const coslat = Math.cos((lat * Math.PI) / 180);
  const region = regionOf(postcode);
  // A property at a point takes a division's nearest offers, not its newest: past 5 km the
  // municipality or district is searched because offers are few, and its offers 50 km away say
  // little about the place.
  const nearestFirst = step.area.kind === 'division' && property.locationPrecision === 'exact';
  let box: { lat0: number; lat1: number; lon0: number; lon1: number } | undefined;
  if (step.area.kind === 'radius') {
    // The square reaching the radius north, south, east and west on the sphere distances are
    // measured on (its corners reach 1.41 times as far): every offer within the radius is in it.
    const { dLat, dLon } = radiusBox(lat, step.area.meters);
    box = { lat0: lat - dLat, lat1: lat + dLat, lon0: lon - dLon, lon1: lon + dLon };
    Object.assign(params, { lat, lon, coslat, ...box });
    if (!step.area.anyRegion) params.region = region.id;
  } else if (step.area.kind === 'street') {
    Object.assign(params, { division: postcode.id, street: step.area.street });
  } else {
    const column = step.area.column;
    params.division =
      column === 'division_level100'
        ? postcode.id
        : ((column === 'division_level8' ? postcode.level8 : postcode.level6) ?? '');
    if (nearestFirst) Object.assign(params, { lat, lon, coslat });
  }
  const tiled =
    box && options.tiles !== false
      ? await fromTiles(db, property, deal, step, {
          ...box,
          lat,
          lon,
          coslat,
          sinceDay,
          untilDay,
          amin: params.amin as number,
          amax: params.amax as number,
          region: step.area.kind === 'radius' && step.area.anyRegion ? undefined : region,
          limit: QUERY_LIMIT,
        })
      : undefined;
  if (tiled) return tiled.map((o) => comparableOf(o, lat, lon));
  const rows = await queryPrepared(db, querySql(deal, step, region.kind, nearestFirst), params);
  return rows.map((r) => ({
    ...comparableOf(placedOfRow(r), lat, lon),
    ...(step.area.kind === 'street' ? { house: textOrNull(r.house_key) } : {}),
  }));
}

/** A comparable of an offer found around (lat, lon). */
function comparableOf(offer: PlacedOffer, lat: number, lon: number): Comparable {
  return {
    y: offer.y,
    // The features in code from the plain columns (see features.ts: the same values as the SQL).
    x: FEATURES.map((f) => f.ofRow(offer.facts)),
    month: monthIndex(offer.facts.start_date),
    distance:
      offer.latitude === null || offer.longitude === null
        ? null
        : distanceMeters(lat, lon, offer.latitude, offer.longitude),
    postcode: offer.postcode,
  };
}

/** The comparables of a narrower step among those found for the widest step of its query. */
export function withinStep(
  found: readonly Comparable[],
  step: SearchStep,
  untilMonth: number,
): Comparable[] {
  return found.filter(
    (c) =>
      c.month > untilMonth - step.months &&
      (step.area.kind !== 'radius' || (c.distance !== null && c.distance <= step.area.meters)),
  );
}
