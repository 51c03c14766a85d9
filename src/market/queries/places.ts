import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { LIST, listValue, VARCHAR } from '@duckdb/node-api';
import type { CountryCode } from '../countries.js';
import { queryPrepared } from '../duck.js';
import { DISTANCE_SQL, withinRadius } from '../geo.js';
import type { PoiCategory } from '../places/categories.js';
import { numberOf, textOrNull } from './values.js';

/** One point of interest as found around a point. */
export interface NearbyPoi {
  id: string;
  category: PoiCategory;
  subcategory: string | null;
  name: string | null;
  coordinates: { latitude: number; longitude: number };
  /** Meters from the search point, rounded. */
  distance: number;
  /** The attribution its licence asks for, as imported. */
  source: string | null;
}

/**
 * Points of interest of the given categories within `radius` meters of a point, nearest first
 * (then by id), one page of them, and how many there are in all.
 */
export async function poisNear(
  db: DuckDBConnection,
  search: {
    countryCode: CountryCode;
    point: { latitude: number; longitude: number };
    radius: number;
    categories: readonly PoiCategory[];
  },
  page: { limit: number; offset: number },
): Promise<{ items: NearbyPoi[]; totalItems: number }> {
  const params: Record<string, DuckDBValue> = {
    country: search.countryCode,
    categories: listValue([...search.categories]),
    limit: page.limit,
    offset: page.offset,
  };
  const where = [
    'country_code = $country',
    'list_contains($categories, category)',
    ...withinRadius(search.point, search.radius, params),
  ];
  const rows = await queryPrepared(
    db,
    `select id, category, subcategory, name, latitude, longitude, source, ${DISTANCE_SQL} as distance,
       (count(*) over ())::integer as total
     from pois where ${where.join(' and ')}
     order by distance, id limit $limit offset $offset`,
    params,
    { categories: LIST(VARCHAR) },
  );
  // A page past the last has no rows to carry the total: count it alone.
  const total =
    rows.length > 0 || page.offset === 0
      ? numberOf(rows[0]?.total)
      : numberOf(
          (
            await queryPrepared(
              db,
              `select count(*)::integer as total from pois where ${where.join(' and ')}`,
              Object.fromEntries(
                Object.entries(params).filter(([k]) => k !== 'limit' && k !== 'offset'),
              ),
              { categories: LIST(VARCHAR) },
            )
          )[0]?.total,
        );
  return {
    items: rows.map((r) => ({
      id: String(r.id),
      category: String(r.category) as PoiCategory,
      subcategory: textOrNull(r.subcategory),
      name: textOrNull(r.name),
      coordinates: { latitude: Number(r.latitude), longitude: Number(r.longitude) },
      distance: Math.round(Number(r.distance)),
      source: textOrNull(r.source),
    })),
    totalItems: total,
  };
}
