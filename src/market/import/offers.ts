import { COUNTRIES, type DivisionLevel } from '../countries.js';
import type { SnapshotBuild } from '../build-snapshot.js';
import { houseKeySql, streetKeySql } from '../address-key.js';
import { sqlString } from '../duck.js';
import { DEAL_TYPES, OFFER_SORT_ORDER, PROPERTY_TYPES } from '../schema.js';
import { fieldChecks, fieldValue, reasonExpression, type FieldSpec } from './fields.js';
import { nearestPostcodeSql } from './nearest-postcode.js';

/** Upper limits of prices and areas an offer may state (and the DVF converter keeps). */
export const MAX_PRICE = 1e10;
export const MAX_AREA = 100_000;
/** Upper limit of a house's land (m²; 1,000 ha), as a dossier may state it. */
export const MAX_LAND_AREA = 10_000_000;

/** The canonical offer format (README "Import formats"). */
export const OFFER_FIELDS: readonly FieldSpec[] = [
  { name: 'id', kind: 'text', required: true, maxLength: 200 },
  { name: 'countryCode', kind: 'country', required: true, values: COUNTRIES },
  { name: 'dealType', kind: 'enum', required: true, values: DEAL_TYPES },
  { name: 'propertyType', kind: 'enum', required: true, values: PROPERTY_TYPES },
  { name: 'startDate', kind: 'date', required: true },
  { name: 'endDate', kind: 'date' },
  { name: 'isActive', kind: 'boolean' },
  { name: 'isNew', kind: 'boolean' },
  { name: 'isPrivate', kind: 'boolean' },
  { name: 'salePrice', kind: 'number', min: 0, max: MAX_PRICE },
  { name: 'rentGross', kind: 'number', min: 0, max: MAX_PRICE },
  { name: 'rentNet', kind: 'number', min: 0, max: MAX_PRICE },
  { name: 'livingArea', kind: 'number', min: 0, max: MAX_AREA },
  { name: 'numberOfRooms', kind: 'number', min: 0, max: 1000 },
  { name: 'numberOfBedrooms', kind: 'integer', min: 0, max: 1000 },
  { name: 'buildingYear', kind: 'integer', min: 1000, max: 2100 },
  { name: 'hasOpenKitchen', kind: 'boolean' },
  { name: 'daysOnMarket', kind: 'integer', min: 0, max: 100_000 },
  { name: 'latitude', kind: 'latitude', min: -90, max: 90 },
  { name: 'longitude', kind: 'longitude', min: -180, max: 180 },
  { name: 'postalCode', kind: 'text', maxLength: 20 },
  { name: 'divisionLevel6', kind: 'text', maxLength: 40 },
  { name: 'divisionLevel8', kind: 'text', maxLength: 40 },
  { name: 'divisionLevel100', kind: 'text', maxLength: 40 },
  { name: 'title', kind: 'text', maxLength: 500 },
  // Characteristics the valuation model adjusts for where an offer states them.
  { name: 'floorNumber', kind: 'integer', min: -5, max: 200 },
  { name: 'isFurnished', kind: 'boolean' },
  { name: 'isSubsidized', kind: 'boolean' },
  { name: 'isOldBuilding', kind: 'boolean' },
  { name: 'hasBalcony', kind: 'boolean' },
  { name: 'hasTerrace', kind: 'boolean' },
  // The land of a house (m²): its price includes it.
  { name: 'landArea', kind: 'number', min: 0, max: MAX_LAND_AREA },
  // The address: offers in the same building or street tell most about a property there.
  { name: 'street', kind: 'text', maxLength: 200 },
  { name: 'houseNumber', kind: 'text', maxLength: 20 },
];

const v = (name: string): string => {
  const field = OFFER_FIELDS.find((f) => f.name === name);
  if (!field) throw new Error(`no offer field ${name}`);
  return fieldValue(field);
};

/** Rules that involve several fields or the divisions, after each field passed on its own. */
function crossChecks(today: string): [string, string][] {
  const unknownDivision = (level: DivisionLevel, alias: string, field: string) =>
    [
      `"${field}" is not null and ${alias}_id is null`,
      `'${field} "' || left("${field}", 40) || '" is not a known level-${level} division of ' || upper("countryCode")`,
    ] as [string, string];
  return [
    [`${v('startDate')} > date ${sqlString(today)}`, "'startDate is in the future'"],
    [`${v('endDate')} < ${v('startDate')}`, "'endDate is before startDate'"],
    [`"dealType" = 'sale' and "salePrice" is null`, "'a sale offer needs salePrice'"],
    [
      `"dealType" = 'rent' and "rentGross" is null and "rentNet" is null`,
      "'a rent offer needs rentGross or rentNet'",
    ],
    [`("latitude" is null) <> ("longitude" is null)`, "'latitude and longitude go together'"],
    unknownDivision(6, 'd6', 'divisionLevel6'),
    unknownDivision(8, 'd8', 'divisionLevel8'),
    unknownDivision(100, 'd100', 'divisionLevel100'),
  ];
}

/**
 * Days on market: a file without the column gets them from `startDate` to `endDate` (or today);
 * in a file with it, an empty cell is unknown. A record of a sale (DVF) has one date, and its 0
 * days would be counted by the statistics as an offer sold the day it appeared.
 */
function daysOnMarket(columns: ReadonlySet<string>, today: string): string {
  if (columns.has('daysOnMarket')) return 't."daysOnMarket"::integer';
  const until = `least(coalesce(t."endDate", date ${sqlString(today)}), date ${sqlString(today)})`;
  return `greatest(0, date_diff('day', t."startDate", ${until}))::integer`;
}

const divisionJoin = (alias: string, level: number, expr: string) =>
  `left join divisions ${alias} on ${alias}.country_code = upper(i."countryCode") and ${alias}.level = ${level} and ${alias}.id = ${expr}`;

/**
 * Checks `incoming` into `checked` (every row with its reason, null when valid), then builds
 * `clean`: typed rows with divisions, days on market and activity derived where missing.
 */
export async function prepareOffers(
  build: SnapshotBuild,
  today: string,
  columns: ReadonlySet<string>,
): Promise<void> {
  const { db } = build;
  const fieldRules = OFFER_FIELDS.flatMap(fieldChecks);
  await db.run(`
    create temp table checked as
    select * exclude (d6_id, d8_id, d100_id),
           ${reasonExpression([...fieldRules, ...crossChecks(today)])} as reason
    from (
      select i.*, d6.id as d6_id, d8.id as d8_id, d100.id as d100_id from incoming i
      ${divisionJoin('d6', 6, 'i."divisionLevel6"')}
      ${divisionJoin('d8', 8, 'i."divisionLevel8"')}
      ${divisionJoin('d100', 100, 'i."divisionLevel100"')})`);

  // Within one file, a later row with the same id replaces an earlier one.
  await db.run(`
    create temp table typed as
    select line, ${OFFER_FIELDS.map((f) => `${fieldValue(f)} as "${f.name}"`).join(', ')},
           upper(regexp_replace("postalCode", '\\s+', '', 'g')) as postcode_key
    from checked where reason is null
    qualify row_number() over (partition by upper("countryCode"), trim("id") order by line desc) = 1`);

  await db.run(`
    create temp table by_postcode as
    select t.line, p.id, p.level6_id, p.level8_id from typed t
    join divisions p on p.country_code = t."countryCode" and p.level = 100 and p.id = t.postcode_key`);
  await db.run(
    nearestPostcodeSql(
      `select t.line, t."countryCode" as country_code, t.latitude, t.longitude from typed t
     where t.latitude is not null and t.line not in (select line from by_postcode)`,
      'by_coordinates',
    ),
  );

  await db.run(`
    create temp table clean as
    select t."countryCode" as country_code, trim(t.id) as id, t."dealType" as deal_type,
      t."propertyType" as property_type, t."startDate" as start_date, t."endDate" as end_date,
      coalesce(t."isActive", t."endDate" is null or t."endDate" >= date ${sqlString(today)}) as is_active,
      t."isNew" as is_new, t."isPrivate" as is_private,
      t."salePrice" as sale_price, t."rentGross" as rent_gross, t."rentNet" as rent_net,
      t."livingArea" as living_area, t."numberOfRooms" as number_of_rooms,
      t."numberOfBedrooms" as number_of_bedrooms, t."buildingYear" as building_year,
      t."hasOpenKitchen" as has_open_kitchen,
      ${daysOnMarket(columns, today)} as days_on_market,
      t.latitude, t.longitude,
      coalesce(t."postalCode", bc.id) as postal_code,
      coalesce(t."divisionLevel6", bp.level6_id, bc.level6_id) as division_level6,
      coalesce(t."divisionLevel8", bp.level8_id, bc.level8_id) as division_level8,
      coalesce(t."divisionLevel100", bp.id, bc.id) as division_level100,
      t.title, t."floorNumber" as floor_number, t."isFurnished" as is_furnished,
      t."isSubsidized" as is_subsidized, t."isOldBuilding" as is_old_building,
      t."hasBalcony" as has_balcony, t."hasTerrace" as has_terrace, t."landArea" as land_area,
      t.street, t."houseNumber" as house_number,
      ${streetKeySql('t.street', 't."houseNumber"')} as street_key,
      ${houseKeySql('t.street', 't."houseNumber"')} as house_key, t.line
    from typed t
    left join by_postcode bp on bp.line = t.line
    left join by_coordinates bc on bc.line = t.line`);

  // An offer that cannot be placed in any division is invisible to every statistic: refuse it.
  await db.run(`
    update checked set reason = case
        when "postalCode" is not null and latitude is not null then 'postalCode "' || "postalCode" || '" is unknown for ' || upper("countryCode") || ' and no postcode of ' || upper("countryCode") || ' lies near its coordinates (within about 11 km)'
        when "postalCode" is not null then 'postalCode "' || "postalCode" || '" is unknown for ' || upper("countryCode") || ' and no coordinates place the offer'
        when latitude is not null then 'no postcode of ' || upper("countryCode") || ' lies near its coordinates (within about 11 km), and it has no postalCode or division ids'
        else 'the offer has no postalCode, coordinates or division ids' end
    where line in (select line from clean where division_level6 is null and division_level8 is null and division_level100 is null)`);
  await db.run(
    `delete from clean where division_level6 is null and division_level8 is null and division_level100 is null`,
  );
}

const OFFER_COLUMN_LIST = `country_code, id, deal_type, property_type, start_date, end_date, is_active,
  is_new, is_private, sale_price, rent_gross, rent_net, living_area, number_of_rooms,
  number_of_bedrooms, building_year, has_open_kitchen, days_on_market, latitude, longitude,
  postal_code, division_level6, division_level8, division_level100, title, floor_number,
  is_furnished, is_subsidized, is_old_building, has_balcony, has_terrace, street, house_number,
  street_key, house_key, land_area`;

/**
 * Writes the new offers table: kept previous rows (unless replacing) plus `clean`, sorted. Columns
 * are matched by name, so a snapshot written before a column existed keeps its rows (null there).
 */
export async function writeOffers(build: SnapshotBuild, replace: boolean): Promise<void> {
  const kept =
    build.hasPrevious && !replace
      ? `select * from prev.offers o
       where not exists (select 1 from clean c where c.country_code = o.country_code and c.id = o.id)
       union all by name`
      : '';
  await build.db.run(`
    insert into offers by name
    select * from (${kept} select ${OFFER_COLUMN_LIST} from clean)
    order by ${OFFER_SORT_ORDER}`);
}
