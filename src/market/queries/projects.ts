import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { CountryCode } from '../countries.js';
import { queryPrepared, type Row } from '../duck.js';
import { DISTANCE_SQL, withinRadius } from '../geo.js';
import type { PROJECT_STATUSES } from '../schema.js';
import { numberOf, numberOrNull, textOrNull } from './values.js';

/** One building project as the API shows it. */
export interface MarketProject {
  id: string;
  name: string;
  coordinates: { latitude: number; longitude: number };
  postalCode: string | null;
  /** Meters from the search point, rounded. */
  distance: number;
  status: (typeof PROJECT_STATUSES)[number];
  numberOfUnits: number | null;
  constructionStartYear: number | null;
  completionYear: number | null;
  isResidential: boolean;
  isCommercial: boolean;
}

function toProject(row: Row): MarketProject {
  return {
    id: String(row.id),
    name: String(row.name),
    coordinates: { latitude: Number(row.latitude), longitude: Number(row.longitude) },
    postalCode: textOrNull(row.postal_code),
    distance: Math.round(Number(row.distance)),
    status: String(row.status) as MarketProject['status'],
    numberOfUnits: numberOrNull(row.number_of_units),
    constructionStartYear: numberOrNull(row.construction_start_year),
    completionYear: numberOrNull(row.completion_year),
    isResidential: Boolean(row.is_residential),
    isCommercial: Boolean(row.is_commercial),
  };
}

/** Building projects within `radius` meters of a point, nearest first (then by id); at most `limit`, all counted. */
export async function projectsNear(
  db: DuckDBConnection,
  search: {
    countryCode: CountryCode;
    point: { latitude: number; longitude: number };
    radius: number;
  },
  limit: number,
): Promise<{ items: MarketProject[]; totalItems: number }> {
  const params: Record<string, DuckDBValue> = { country: search.countryCode, limit };
  const where = ['country_code = $country', ...withinRadius(search.point, search.radius, params)];
  const rows = await queryPrepared(
    db,
    `select id, name, latitude, longitude, postal_code, ${DISTANCE_SQL} as distance, status,
       number_of_units, construction_start_year, completion_year, is_residential, is_commercial,
       (count(*) over ())::integer as total
     from projects
     where ${where.join(' and ')}
     order by distance, id
     limit $limit`,
    params,
  );
  return { items: rows.map(toProject), totalItems: numberOf(rows[0]?.total) };
}
