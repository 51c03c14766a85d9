import type { DuckDBConnection } from '@duckdb/node-api';
import { queryOne, queryRows, type Row } from '../../market/duck.js';
import { invalidField } from '../../http/field-errors.js';
import { AppError } from '../../http/problem.js';
import type { Division, DivisionList, DivisionParams, DivisionQuery } from './schemas.js';

// A division's parent: a postcode's level-8 division (or level 6 where the country has no
// level 8); a level-8 division's level-6 division.
const PARENT_LEVEL =
  'case when d.level = 100 and d.level8_id is not null then 8 when d.level in (8, 100) and d.level6_id is not null then 6 end';
const PARENT_ID =
  'case when d.level = 100 and d.level8_id is not null then d.level8_id when d.level in (8, 100) then d.level6_id end';

const COLUMNS = `d.country_code, d.level, d.id, d.name, d.latitude, d.longitude,
  ${PARENT_LEVEL} as parent_level, ${PARENT_ID} as parent_id`;

function toDivision(row: Row): Division {
  const division: Division = {
    countryCode: String(row.country_code),
    level: Number(row.level),
    id: String(row.id),
    name: String(row.name),
  };
  if (row.parent_level !== null && row.parent_id !== null) {
    division.parentLevel = Number(row.parent_level);
    division.parentId = String(row.parent_id);
  }
  if (row.latitude !== null && row.longitude !== null) {
    division.centroid = { latitude: Number(row.latitude), longitude: Number(row.longitude) };
  }
  return division;
}

export async function listDivisions(
  db: DuckDBConnection,
  query: DivisionQuery,
): Promise<DivisionList> {
  if ((query.latitude === undefined) !== (query.longitude === undefined)) {
    throw invalidField(
      query.latitude === undefined ? '/latitude' : '/longitude',
      'is required with the other coordinate',
      { part: 'query', detail: 'latitude and longitude must be given together' },
    );
  }
  const where: string[] = [];
  const params: Record<string, string | number> = {};
  let from = 'divisions d';
  if (query.countryCode !== undefined) {
    where.push('d.country_code = $country');
    params.country = query.countryCode;
  }
  if (query.level !== undefined) {
    where.push('d.level = $level');
    params.level = query.level;
  }
  if (query.q !== undefined) {
    where.push('(contains(lower(d.name), lower($q)) or starts_with(lower(d.id), lower($q)))');
    params.q = query.q;
  }
  if (query.parentId !== undefined) {
    where.push(`${PARENT_ID} = $parent`);
    params.parent = query.parentId;
  }
  if (query.latitude !== undefined && query.longitude !== undefined) {
    // The divisions that contain the postcode nearest to the point.
    from = `divisions d, (
      select country_code, id, level6_id, level8_id from divisions
      where level = 100 and latitude is not null ${query.countryCode !== undefined ? 'and country_code = $country' : ''}
      order by (latitude - $lat) ** 2 + ((longitude - $lon) * cos(radians($lat))) ** 2, country_code, id
      limit 1) n`;
    where.push(`d.country_code = n.country_code and ((d.level = 100 and d.id = n.id)
      or (d.level = 8 and d.id = n.level8_id) or (d.level = 6 and d.id = n.level6_id))`);
    params.lat = query.latitude;
    params.lon = query.longitude;
  }
  const filter = where.length > 0 ? `where ${where.join(' and ')}` : '';
  const total = await queryOne(db, `select count(*)::integer as n from ${from} ${filter}`, params);
  const rows = await queryRows(
    db,
    `select ${COLUMNS} from ${from} ${filter}
     order by d.country_code, d.level, d.name, d.id limit ${query.limit} offset ${query.offset}`,
    params,
  );
  return {
    items: rows.map(toDivision),
    totalItems: Number(total?.n ?? 0),
    limit: query.limit,
    offset: query.offset,
  };
}

export async function getDivision(db: DuckDBConnection, params: DivisionParams): Promise<Division> {
  const row = await queryOne(
    db,
    `select ${COLUMNS} from divisions d where d.country_code = $country and d.level = $level and d.id = $id`,
    { country: params.countryCode, level: params.level, id: params.id },
  );
  if (!row)
    throw new AppError(
      'not_found',
      `Division ${params.countryCode}/${params.level}/${params.id} not found`,
    );
  return toDivision(row);
}
