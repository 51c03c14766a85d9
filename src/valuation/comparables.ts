import type { DuckDBConnection } from '@duckdb/node-api';
import { queryPrepared } from '../market/duck.js';
import { monthIndex } from '../dates.js';
import { PRICE_COLUMN } from '../market/queries/offer-columns.js';
import { FEATURE_COLUMNS, FEATURES, featureRow } from './features.js';
import { AREA_LIMITS, REGION_FILTER_SQL, regionOf, type RegionKind } from './model-sums.js';
import { distanceMeters, type Postcode } from './snapshot-cache.js';
import type { DealType, PropertyToValue } from './types.js';
import { textOrNull } from '../market/queries/values.js';

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

const METERS_PER_DEGREE = 111_320;

function querySql(deal: DealType, step: SearchStep, region: RegionKind): string {
  const price = PRICE_COLUMN[deal];
  const inRegion = ` and ${REGION_FILTER_SQL[region]}`;
  const where =
    step.area.kind === 'radius'
      ? `latitude between $lat0 and $lat1 and longitude between $lon0 and $lon1${step.area.anyRegion ? '' : inRegion}`
      : step.area.kind === 'street'
        ? 'division_level100 = $division and street_key = $street'
        : `${step.area.column} = $division`;
  const order =
    step.area.kind === 'radius'
      ? '(latitude - $lat) ** 2 + ((longitude - $lon) * $coslat) ** 2'
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

function isoDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** Runs the query of `step` (the widest step of a query) and returns the rows found. */
export async function findComparables(
  db: DuckDBConnection,
  property: PropertyToValue,
  postcode: Postcode,
  deal: DealType,
  step: SearchStep,
  until: string,
): Promise<Comparable[]> {
  const untilDay = Date.parse(`${until}T00:00:00Z`) / 86_400_000;
  const params: Record<string, string | number> = {
    cc: property.countryCode,
    type: property.propertyType,
    since: isoDay(untilDay - Math.round(step.months * 30.44)),
    until,
    amin: Math.max(AREA_LIMITS.min, property.livingArea / AREA_FACTOR),
    amax: Math.min(AREA_LIMITS.max, property.livingArea * AREA_FACTOR),
  };
  const { latitude: lat, longitude: lon } = property;
  const coslat = Math.cos((lat * Math.PI) / 180);
  if (step.area.kind === 'radius') {
    const dLat = step.area.meters / METERS_PER_DEGREE;
    const dLon = dLat / Math.max(coslat, 0.01);
    Object.assign(params, {
      lat,
      lon,
      coslat,
      lat0: lat - dLat,
      lat1: lat + dLat,
      lon0: lon - dLon,
      lon1: lon + dLon,
    });
  } else if (step.area.kind === 'street') {
    Object.assign(params, { division: postcode.id, street: step.area.street });
  } else {
    const column = step.area.column;
    params.division =
      column === 'division_level100'
        ? postcode.id
        : ((column === 'division_level8' ? postcode.level8 : postcode.level6) ?? '');
  }
  const region = regionOf(postcode);
  if (step.area.kind === 'radius' && !step.area.anyRegion) params.region = region.id;
  const rows = await queryPrepared(db, querySql(deal, step, region.kind), params);
  return rows.map((r) => {
    // The features in code from the plain columns (see features.ts: the same values as the SQL).
    const facts = featureRow(r);
    return {
      y: Number(r.y),
      x: FEATURES.map((f) => f.ofRow(facts)),
      month: monthIndex(facts.start_date),
      distance:
        r.latitude === null || r.longitude === null
          ? null
          : distanceMeters(lat, lon, Number(r.latitude), Number(r.longitude)),
      postcode: textOrNull(r.division_level100),
      ...(step.area.kind === 'street' ? { house: textOrNull(r.house_key) } : {}),
    };
  });
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
