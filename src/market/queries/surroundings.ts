import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { CountryCode } from '../countries.js';
import { queryPrepared } from '../duck.js';
import { DISTANCE_SQL, withinRadius } from '../geo.js';
import type { PoiCategory } from '../places/categories.js';
import { numberOf, numberOrNull, textOrNull } from './values.js';

/** A point of a country to look around, and how far (meters). */
export interface Around {
  countryCode: CountryCode;
  point: { latitude: number; longitude: number };
  radius: number;
}

/** What the points of interest of one category say about a point. */
export interface CategoryMeasure {
  category: PoiCategory;
  within500: number;
  within1000: number;
  /** Meters to the nearest, unrounded. */
  nearest: number;
  /** Σ (1 − d / 1000) over the places within 1 km: one at the door counts 1, at 500 m ½. */
  walkingWeight: number;
}

/**
 * For each category with a place within `radius` of the point: counts within 500 m and 1 km,
 * the distance to the nearest and the walking-weighted count (places/scores.ts uses them).
 * A category without a place within `radius` has no row.
 */
export async function poiMeasures(
  db: DuckDBConnection,
  around: Around,
): Promise<CategoryMeasure[]> {
  const params: Record<string, DuckDBValue> = { country: around.countryCode };
  const where = ['country_code = $country', ...withinRadius(around.point, around.radius, params)];
  const rows = await queryPrepared(
    db,
    `with near as (select category, ${DISTANCE_SQL} as d from pois where ${where.join(' and ')})
     select category,
       (count(*) filter (where d <= 500))::integer as within500,
       (count(*) filter (where d <= 1000))::integer as within1000,
       min(d) as nearest,
       coalesce(sum(1 - d / 1000) filter (where d <= 1000), 0) as weight
     from near group by category order by category`,
    params,
  );
  return rows.map((r) => ({
    category: String(r.category) as PoiCategory,
    within500: numberOf(r.within500),
    within1000: numberOf(r.within1000),
    nearest: Number(r.nearest),
    walkingWeight: Number(r.weight),
  }));
}

/** What the transit stops say about a point. */
export interface TransitMeasure {
  /** Meters to the nearest stop within the radius, unrounded; null when there is none. */
  nearest: number | null;
  /** Stops with a platform within 500 m: the platforms of one stop share its name and count once. */
  stopsWithin500: number;
}

export async function transitMeasure(
  db: DuckDBConnection,
  around: Around,
): Promise<TransitMeasure> {
  const params: Record<string, DuckDBValue> = { country: around.countryCode };
  const where = ['country_code = $country', ...withinRadius(around.point, around.radius, params)];
  const [row] = await queryPrepared(
    db,
    `with near as (select name, ${DISTANCE_SQL} as d from transit_stops where ${where.join(' and ')})
     select min(d) as nearest, (count(distinct name) filter (where d <= 500))::integer as stops
     from near`,
    params,
  );
  return { nearest: numberOrNull(row?.nearest), stopsWithin500: numberOf(row?.stops) };
}

/** A place shown around a point: a point of interest or a stop. */
export interface PlaceNear {
  name: string | null;
  /** The category of a point of interest; the mode of a stop, when the data says. */
  kind: string | null;
  coordinates: { latitude: number; longitude: number };
  /** Meters, unrounded: whoever shows it rounds (a report rounds up, README "Reports"). */
  distance: number;
  source: string | null;
}

const toPlace = (r: Record<string, DuckDBValue>): PlaceNear => ({
  name: textOrNull(r.name),
  kind: textOrNull(r.kind),
  coordinates: { latitude: Number(r.latitude), longitude: Number(r.longitude) },
  distance: Number(r.d),
  source: textOrNull(r.source),
});

/** The `perCategory` nearest points of interest of each category within the radius, nearest first. */
export async function nearestPoisByCategory(
  db: DuckDBConnection,
  around: Around,
  perCategory: number,
): Promise<PlaceNear[]> {
  const params: Record<string, DuckDBValue> = { country: around.countryCode, per: perCategory };
  const where = ['country_code = $country', ...withinRadius(around.point, around.radius, params)];
  const rows = await queryPrepared(
    db,
    `select name, category as kind, latitude, longitude, source, ${DISTANCE_SQL} as d
     from pois where ${where.join(' and ')}
     qualify row_number() over (partition by category order by d, id) <= $per
     order by d, id`,
    params,
  );
  return rows.map(toPlace);
}

/** The `limit` nearest stops within the radius, each stop once (at its nearest platform). */
export async function nearestStops(
  db: DuckDBConnection,
  around: Around,
  limit: number,
): Promise<PlaceNear[]> {
  const params: Record<string, DuckDBValue> = { country: around.countryCode, limit };
  const where = ['country_code = $country', ...withinRadius(around.point, around.radius, params)];
  const rows = await queryPrepared(
    db,
    `select name, mode as kind, latitude, longitude, source, ${DISTANCE_SQL} as d
     from transit_stops where ${where.join(' and ')}
     qualify row_number() over (partition by name order by d, id) = 1
     order by d, name limit $limit`,
    params,
  );
  return rows.map(toPlace);
}
