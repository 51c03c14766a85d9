import { openDuck, queryOne, sqlString } from '../duck.js';

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

/**
 * Converts the willhaben Vienna rental listings (shared/data/vienna-rent, MIT) into the
 * canonical offer CSV. Listings have no coordinates: their postcode places them. A listing is
 * taken as active when it was seen in the last crawl; days on market run from first to last
 * sighting. The rent is the advertised total monthly rent, taken as gross rent.
 */
export async function convertViennaRent(
  source: string,
  target: string,
): Promise<{ rows: number; skipped: number }> {
  const instance = await openDuck(':memory:');
  const db = await instance.connect();
  try {
    await db.run(
      `create temp table raw as select * from read_csv(${sqlString(source)}, header = true, all_varchar = true)`,
    );
    await db.run(`
      create temp table converted as
      with src as (
        select *, try_cast(first_seen as timestamptz) as seen_first, try_cast(last_seen as timestamptz) as seen_last
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
        nullif(Rooms, 'N/A') as numberOfRooms,
        greatest(0, round(epoch(seen_last - seen_first) / 86400))::integer as daysOnMarket,
        Postcode as postalCode,
        left(Description, 500) as title
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
