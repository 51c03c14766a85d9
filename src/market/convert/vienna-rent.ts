import fs from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuck, queryOne, queryRows, sqlString } from '../duck.js';

/** A source that is not the willhaben listings file: the message says what is wrong. */
export class ViennaRentFormatError extends Error {}

/** The columns of willhaben-vienna-rent.csv.gz the conversion and the benchmark read. */
export const VIENNA_RENT_COLUMNS = [
  'Ad ID',
  'Description',
  'Postcode',
  'Price',
  'Rooms',
  'Size (m²)',
  'State',
  'Floor',
  'Property Type',
  'Rent (€)',
  'Address',
  'first_seen',
  'last_seen',
] as const;

/**
 * Throws ViennaRentFormatError where `source` is missing or lacks a column the listings file
 * has, before any query reads it (else the database's own message would be the only hint).
 */
export async function checkViennaRentSource(db: DuckDBConnection, source: string): Promise<void> {
  if (!fs.existsSync(source)) throw new ViennaRentFormatError(`${source} does not exist`);
  if (fs.statSync(source).isDirectory())
    throw new ViennaRentFormatError(`${source} is a folder; name the listings file`);
  let columns: string[];
  try {
    const rows = await queryRows(
      db,
      `describe select * from read_csv(${sqlString(source)}, header = true, all_varchar = true)`,
    );
    columns = rows.map((r) => String(r.column_name));
  } catch (error) {
    throw new ViennaRentFormatError(
      `${source} cannot be read as CSV: ${(error as Error).message.split('\n')[0] ?? ''}`,
    );
  }
  const missing = VIENNA_RENT_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length > 0)
    throw new ViennaRentFormatError(
      `${source} is not the willhaben listings file: it lacks the column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `"${c}"`).join(', ')}`,
    );
}

/** willhaben property types that are whole flats; rooms in shared flats and attics are not. */
const APARTMENT_TYPES = [
  'Wohnung',
  'Dachgeschoßwohnung',
  'Erdgeschoßwohnung',
  'Genossenschaftswohnung',
  'Maisonette',
  'Garconniere',
  'Penthousewohnung',
  'Loft/Studio',
  'N/A',
];

/** Floors written as words: ground floor, raised ground floor and mezzanine count as 0. */
const GROUND_FLOOR = '^(eg|e|erdgescho.*|parterre|hochpar.*|hp|mezzanin.*|halbstock)$';

/**
 * What a listing states about the flat, from its property type and title (lowercased as `t`).
 * Furnishing is nearly always in the title of a furnished flat, so its absence counts as
 * unfurnished; the others are only taken when said (null otherwise). "Altbau" is a building
 * permitted before 1945 (the rent-law meaning), so the model puts it in its before-1946 class;
 * "Erstbezug" in such a building is a first letting after renovation, not a new building.
 */
const STATED = {
  floorNumber: `case when regexp_matches(lower(trim(Floor)), '${GROUND_FLOOR}') then 0
    else try_cast(regexp_extract(trim(Floor), '^(-?[0-9]{1,2})([^0-9]|$)', 1) as integer) end`,
  isFurnished: `case when regexp_matches(t, 'unm(ö|oe)bliert|unfurnished') then 'false'
    when regexp_matches(t, 'm(ö|oe)bliert|furnished|serviced|blueground|kurzzeit') then 'true'
    else 'false' end`,
  isSubsidized: `case when "Property Type" = 'Genossenschaftswohnung'
    or regexp_matches(t, 'genossenschaft|gemeindewohnung|gemeindebau') then 'true' end`,
  isOldBuilding: `case when regexp_matches(t, 'altbau') then 'true' end`,
  isNew: `case when regexp_matches(t, 'erstbezug|neubauprojekt') and not regexp_matches(t, 'altbau') then 'true' end`,
  hasBalcony: `case when regexp_matches(t, 'balkon|loggia') then 'true' end`,
  hasTerrace: `case when regexp_matches(t, 'terrasse') then 'true' end`,
};

/**
 * Converts the willhaben Vienna rental listings (shared/data/vienna-rent, MIT) into the
 * canonical offer CSV. Listings have no coordinates: their postcode places them. A listing is
 * taken as active when it was seen in the last crawl; days on market run from first to last
 * sighting. The rent is the advertised total monthly rent, taken as gross rent. The address
 * (street and house number in one text, often only the street) goes into `street`.
 */
export async function convertViennaRent(
  source: string,
  target: string,
): Promise<{ rows: number; skipped: number }> {
  const instance = await openDuck(':memory:');
  const db = await instance.connect();
  try {
    await checkViennaRentSource(db, source);
    await db.run(
      `create temp table raw as select * from read_csv(${sqlString(source)}, header = true, all_varchar = true)`,
    );
    await db.run(`
      create temp table converted as
      with src as (
        select *, lower(coalesce(Description, '')) as t, try_cast(first_seen as timestamptz) as seen_first, try_cast(last_seen as timestamptz) as seen_last
        from raw where "Property Type" in (${APARTMENT_TYPES.map(sqlString).join(', ')})
      ), crawl as (select max(seen_last) as last_crawl from src)
      select
        'willhaben-' || "Ad ID" as id,
        'AT' as countryCode,
        'rent' as dealType,
        'apartment' as propertyType,
        strftime(seen_first, '%Y-%m-%d') as startDate,
        case when seen_last < last_crawl - interval 1 day then strftime(seen_last, '%Y-%m-%d') end as endDate,
        case when seen_last >= last_crawl - interval 1 day then 'true' else 'false' end as isActive,
        coalesce(nullif("Rent (€)", 'N/A'), nullif(Price, 'N/A')) as rentGross,
        nullif("Size (m²)", 'N/A') as livingArea,
        -- 0 rooms is a count left out, not a studio: those listings have the sizes of all flats
        -- (median 55 m², one-room flats 36 m²), and as one room they would be a false signal.
        case when try_cast(Rooms as double) > 0 then Rooms end as numberOfRooms,
        greatest(0, round(epoch(seen_last - seen_first) / 86400))::integer as daysOnMarket,
        Postcode as postalCode,
        left(Description, 500) as title,
        -- The address as written ("Karl-Popper-Straße 5", "n/a"): the importer derives the keys.
        nullif(nullif(trim(Address), ''), 'N/A') as street,
        ${Object.entries(STATED)
          .map(([name, sql]) => `${sql} as "${name}"`)
          .join(',\n        ')}
      from src, crawl`);
    await db.run(
      `copy converted to ${sqlString(target)} (header${target.endsWith('.gz') ? ', compression gzip' : ''})`,
    );
    const rows = Number(
      (await queryOne(db, 'select count(*)::integer as n from converted'))?.n ?? 0,
    );
    const all = Number((await queryOne(db, 'select count(*)::integer as n from raw'))?.n ?? 0);
    return { rows, skipped: all - rows };
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}
