import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { queryPrepared, type Row } from '../../market/duck.js';
import { DISTANCE_SQL, withinRadius } from '../../market/geo.js';
import type { CountryCode } from '../../market/countries.js';
import type { ProjectItem } from './schemas.js';

const num = (v: DuckDBValue | undefined): number | null =>
  v === null || v === undefined ? null : Number(v);

function toItem(row: Row): ProjectItem {
  return {
    id: String(row.id),
    name: String(row.name),
    coordinates: { latitude: Number(row.latitude), longitude: Number(row.longitude) },
    postalCode: row.postal_code === null ? null : String(row.postal_code),
    distance: Math.round(Number(row.distance)),
    status: String(row.status) as ProjectItem['status'],
    numberOfUnits: num(row.number_of_units),
    constructionStartYear: num(row.construction_start_year),
    completionYear: num(row.completion_year),
    isResidential: Boolean(row.is_residential),
    isCommercial: Boolean(row.is_commercial),
  };
}

/** Building projects within `radius` meters, nearest first (then by id); at most `limit`. */
export async function findProjects(
  db: DuckDBConnection,
  search: {
    countryCode: CountryCode;
    point: { latitude: number; longitude: number };
    radius: number;
    limit: number;
  },
): Promise<{ items: ProjectItem[]; totalItems: number }> {
  const params: Record<string, DuckDBValue> = { country: search.countryCode, limit: search.limit };
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
  return { items: rows.map(toItem), totalItems: Number(rows[0]?.total ?? 0) };
}
