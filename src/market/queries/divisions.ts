import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import {
  divisionIdOf,
  normalizePostcode,
  type CountryCode,
  type DivisionLevel,
} from '../countries.js';
import { queryPrepared, type Row } from '../duck.js';
import { withinRadius } from '../geo.js';
import { numberOf, pointOrNull } from './values.js';

/** Postcodes are the level-100 divisions of the market data. */
const POSTCODE_LEVEL = 100;

// A division's parent: a postcode's level-8 division (or level 6 where the country has no
// level 8); a level-8 division's level-6 division.
const PARENT_LEVEL =
  'case when d.level = 100 and d.level8_id is not null then 8 when d.level in (8, 100) and d.level6_id is not null then 6 end';
const PARENT_ID =
  'case when d.level = 100 and d.level8_id is not null then d.level8_id when d.level in (8, 100) then d.level6_id end';

const COLUMNS = `d.country_code, d.level, d.id, d.name, d.latitude, d.longitude,
  ${PARENT_LEVEL} as parent_level, ${PARENT_ID} as parent_id`;

/** One administrative division as the API shows it. */
export interface MarketDivision {
  countryCode: string;
  level: number;
  id: string;
  name: string;
  parentLevel?: number;
  parentId?: string;
  centroid?: { latitude: number; longitude: number };
}

/** Which divisions to list; every given part narrows the list. */
export interface DivisionFilter {
  countryCode?: CountryCode;
  level?: DivisionLevel;
  /** Part of the name or the start of the id, case-insensitive. */
  q?: string;
  parentId?: string;
  /** Only divisions whose parent is of this level. */
  parentLevel?: 6 | 8;
  /** The divisions containing the postcode nearest to this point. */
  near?: { latitude: number; longitude: number };
}

function toDivision(row: Row): MarketDivision {
  const division: MarketDivision = {
    countryCode: String(row.country_code),
    level: Number(row.level),
    id: String(row.id),
    name: String(row.name),
  };
  if (row.parent_level !== null && row.parent_id !== null) {
    division.parentLevel = Number(row.parent_level);
    division.parentId = String(row.parent_id);
  }
  const centroid = pointOrNull(row.latitude, row.longitude);
  if (centroid) division.centroid = centroid;
  return division;
}

/** The FROM and WHERE of a filter; every value is a bound parameter. */
function filterSql(
  filter: DivisionFilter,
  params: Record<string, DuckDBValue>,
): { from: string; where: string } {
  const where: string[] = [];
  let from = 'divisions d';
  if (filter.countryCode !== undefined) {
    where.push('d.country_code = $country');
    params.country = filter.countryCode;
  }
  if (filter.level !== undefined) {
    where.push('d.level = $level');
    params.level = filter.level;
  }
  if (filter.q !== undefined) {
    // Ids are matched without spaces, as postcodes are compared (`100 00` finds `10000`). A q
    // of white space alone says nothing about an id: every id starts with the empty text.
    const qId = filter.q.replaceAll(/\s+/g, '');
    where.push(
      qId === ''
        ? 'contains(lower(d.name), lower($q))'
        : '(contains(lower(d.name), lower($q)) or starts_with(lower(d.id), lower($qId)))',
    );
    params.q = filter.q;
    if (qId !== '') params.qId = qId;
  }
  if (filter.parentId !== undefined) {
    where.push(`${PARENT_ID} = $parent`);
    params.parent = filter.parentId;
  }
  if (filter.parentLevel !== undefined) {
    where.push(`${PARENT_LEVEL} = $parentLevel`);
    params.parentLevel = filter.parentLevel;
  }
  if (filter.near) {
    from = `divisions d, (
      select country_code, id, level6_id, level8_id from divisions
      where level = ${POSTCODE_LEVEL} and latitude is not null
        ${filter.countryCode !== undefined ? 'and country_code = $country' : ''}
      order by (latitude - $lat) ** 2 + ((longitude - $lon) * cos(radians($lat))) ** 2, country_code, id
      limit 1) n`;
    where.push(`d.country_code = n.country_code and ((d.level = ${POSTCODE_LEVEL} and d.id = n.id)
      or (d.level = 8 and d.id = n.level8_id) or (d.level = 6 and d.id = n.level6_id))`);
    params.lat = filter.near.latitude;
    params.lon = filter.near.longitude;
  }
  return { from, where: where.length > 0 ? `where ${where.join(' and ')}` : '' };
}

/** One page of the divisions of a filter, by country, level, name and id, and their count. */
export async function findDivisions(
  db: DuckDBConnection,
  filter: DivisionFilter,
  page: { limit: number; offset: number },
): Promise<{ items: MarketDivision[]; totalItems: number }> {
  const params: Record<string, DuckDBValue> = {};
  const { from, where } = filterSql(filter, params);
  const [total] = await queryPrepared(
    db,
    `select count(*)::integer as n from ${from} ${where}`,
    params,
  );
  const rows = await queryPrepared(
    db,
    `select ${COLUMNS} from ${from} ${where}
     order by d.country_code, d.level, d.name, d.id limit $limit offset $offset`,
    { ...params, limit: page.limit, offset: page.offset },
  );
  return { items: rows.map(toDivision), totalItems: numberOf(total?.n) };
}

/** The division of a country, level and id, if the data has it. */
export async function divisionByKey(
  db: DuckDBConnection,
  key: { countryCode: CountryCode; level: DivisionLevel; id: string },
): Promise<MarketDivision | undefined> {
  const [row] = await queryPrepared(
    db,
    `select ${COLUMNS} from divisions d
     where d.country_code = $country and d.level = $level and d.id = $id`,
    { country: key.countryCode, level: key.level, id: divisionIdOf(key.level, key.id) },
  );
  return row ? toDivision(row) : undefined;
}

/** The centroid of a postcode of the country, when the divisions data knows it and its point. */
export async function postcodeCentroid(
  db: DuckDBConnection,
  countryCode: CountryCode,
  postCode: string,
): Promise<{ latitude: number; longitude: number } | undefined> {
  const [row] = await queryPrepared(
    db,
    `select latitude, longitude from divisions
     where country_code = $country and level = ${POSTCODE_LEVEL} and id = $id
       and latitude is not null and longitude is not null`,
    { country: countryCode, id: normalizePostcode(postCode) },
  );
  return row ? (pointOrNull(row.latitude, row.longitude) ?? undefined) : undefined;
}

/**
 * Whether a point lies in the country, as far as the divisions data can tell: some postcode of
 * the country has its centroid within `reachKm` of it (haversine). A point near a border is in
 * reach of its own country's postcodes; a point in another country (a DE dossier in Vienna) or
 * in the sea (an FR one at −45/170) is not. Undefined when the data has no postcode points for
 * the country: then nothing can be said. The valuation model refuses a point by the same
 * distance (src/valuation/value-property.ts), so a point this accepts is one it values.
 */
export async function nearCountry(
  db: DuckDBConnection,
  countryCode: CountryCode,
  point: { latitude: number; longitude: number },
  reachKm: number,
): Promise<boolean | undefined> {
  const params: Record<string, DuckDBValue> = { country: countryCode };
  const within = withinRadius(point, reachKm * 1000, params).join(' and ');
  const [row] = await queryPrepared(
    db,
    `select count(*)::integer as postcodes,
            count(*) filter (where ${within})::integer as near
       from divisions
      where country_code = $country and level = ${POSTCODE_LEVEL}
        and latitude is not null and longitude is not null`,
    params,
  );
  if (!row || numberOf(row.postcodes) === 0) return undefined;
  return numberOf(row.near) > 0;
}
