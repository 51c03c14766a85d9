import type { SnapshotBuild } from '../build-snapshot.js';
import { COUNTRIES } from '../countries.js';
import { sqlString } from '../duck.js';
import { DEMO_SOURCE } from '../places/demo-source.js';
import { POI_CATEGORY_NAMES, TRANSIT_MODES } from '../places/categories.js';
import { fieldChecks, fieldValue, reasonExpression, type FieldSpec } from './fields.js';

/** The canonical points-of-interest format (README "Places data"). */
export const POI_FIELDS: readonly FieldSpec[] = [
  { name: 'id', kind: 'text', required: true, maxLength: 200 },
  { name: 'countryCode', kind: 'country', required: true, values: COUNTRIES },
  { name: 'category', kind: 'enum', required: true, values: POI_CATEGORY_NAMES },
  { name: 'subcategory', kind: 'text', maxLength: 100 },
  { name: 'name', kind: 'text', maxLength: 300 },
  { name: 'latitude', kind: 'latitude', required: true, min: -90, max: 90 },
  { name: 'longitude', kind: 'longitude', required: true, min: -180, max: 180 },
  { name: 'source', kind: 'text', maxLength: 200 },
];

/** The canonical transit stop format. */
export const TRANSIT_FIELDS: readonly FieldSpec[] = [
  { name: 'id', kind: 'text', required: true, maxLength: 200 },
  { name: 'countryCode', kind: 'country', required: true, values: COUNTRIES },
  { name: 'name', kind: 'text', required: true, maxLength: 300 },
  { name: 'mode', kind: 'enum', values: TRANSIT_MODES },
  { name: 'latitude', kind: 'latitude', required: true, min: -90, max: 90 },
  { name: 'longitude', kind: 'longitude', required: true, min: -180, max: 180 },
  { name: 'source', kind: 'text', maxLength: 200 },
];

/** The canonical area indicator format: one value of one indicator, division and year. */
export const INDICATOR_FIELDS: readonly FieldSpec[] = [
  { name: 'countryCode', kind: 'country', required: true, values: COUNTRIES },
  { name: 'level', kind: 'enum', required: true, values: ['6', '8', '100'] },
  { name: 'divisionId', kind: 'text', required: true, maxLength: 40 },
  { name: 'indicator', kind: 'text', required: true, maxLength: 100 },
  { name: 'year', kind: 'integer', required: true, min: 1800, max: 2100 },
  { name: 'value', kind: 'number', required: true },
  { name: 'unit', kind: 'text', maxLength: 40 },
  { name: 'source', kind: 'text', maxLength: 200 },
];

const value = (name: string, fields: readonly FieldSpec[]) => {
  const field = fields.find((f) => f.name === name);
  if (!field) throw new Error(`no field ${name}`);
  return fieldValue(field);
};

async function check(build: SnapshotBuild, rules: [string, string][]): Promise<void> {
  await build.db.run(`
    create temp table checked as select i.*, ${reasonExpression(rules)} as reason from incoming i`);
}

export async function preparePois(build: SnapshotBuild): Promise<void> {
  await check(build, POI_FIELDS.flatMap(fieldChecks));
  const v = (name: string) => value(name, POI_FIELDS);
  await build.db.run(`
    create temp table clean as
    select ${v('countryCode')} as country_code, ${v('id')} as id, category,
      ${v('subcategory')} as subcategory, ${v('name')} as name,
      ${v('latitude')} as latitude, ${v('longitude')} as longitude, ${v('source')} as source
    from checked where reason is null
    qualify row_number() over (partition by upper("countryCode"), trim("id") order by line desc) = 1`);
}

export async function prepareTransit(build: SnapshotBuild): Promise<void> {
  await check(build, TRANSIT_FIELDS.flatMap(fieldChecks));
  const v = (name: string) => value(name, TRANSIT_FIELDS);
  await build.db.run(`
    create temp table clean as
    select ${v('countryCode')} as country_code, ${v('id')} as id, ${v('name')} as name,
      mode, ${v('latitude')} as latitude, ${v('longitude')} as longitude, ${v('source')} as source
    from checked where reason is null
    qualify row_number() over (partition by upper("countryCode"), trim("id") order by line desc) = 1`);
}

export async function prepareIndicators(build: SnapshotBuild): Promise<void> {
  await check(build, [
    ...INDICATOR_FIELDS.flatMap(fieldChecks),
    // Indicators attach to divisions the data knows (imported before them).
    [
      `not exists (select 1 from divisions d where d.country_code = upper("countryCode")
         and d.level = try_cast("level" as integer) and d.id = trim("divisionId"))`,
      `'divisionId "' || left("divisionId", 40) || '" is not a division of level ' || "level" || ' of ' || upper("countryCode")`,
    ],
  ]);
  await build.db.run(`
    create temp table clean as
    select upper("countryCode") as country_code, "level"::integer as level,
      trim("divisionId") as division_id, trim("indicator") as indicator,
      try_cast("year" as integer) as year, try_cast("value" as double) as value,
      nullif(trim("unit"), '') as unit, nullif(trim("source"), '') as source
    from checked where reason is null
    qualify row_number() over (
      partition by upper("countryCode"), "level", trim("divisionId"), trim("indicator"), "year"
      order by line desc) = 1`);
}

export async function hasPreviousTable(build: SnapshotBuild, table: string): Promise<boolean> {
  if (!build.hasPrevious) return false;
  const found = await build.db.runAndReadAll(
    `select 1 from duckdb_tables() where database_name = 'prev' and table_name = '${table}'`,
  );
  return found.currentRowCount > 0;
}

/**
 * Writes the clean rows into `table`, keeping (unless `replace`) the previous rows whose key
 * the file does not name; the rows ordered by `order`.
 */
async function writeKeyed(
  build: SnapshotBuild,
  table: string,
  key: readonly string[],
  order: string,
  replace: boolean,
  /** A condition on a previous row `o` that drops it too. */
  alsoDrop?: string,
): Promise<void> {
  // By name: a snapshot written before a column was added has it as null.
  const kept =
    !replace && (await hasPreviousTable(build, table))
      ? `select * from prev.${table} o where not exists (
           select 1 from clean c where ${key.map((k) => `c.${k} = o.${k}`).join(' and ')})
           ${alsoDrop === undefined ? '' : `and not (${alsoDrop})`}
         union all by name`
      : '';
  await build.db.run(`
    insert into ${table} by name
    select * from (${kept} select * from clean) order by ${order}`);
}

// Points are ordered by place (as offers_by_place is): a radius search reads few row groups.
export const BY_PLACE = 'country_code, floor(latitude * 20), longitude';

export const writePois = (build: SnapshotBuild, replace: boolean) =>
  writeKeyed(build, 'pois', ['country_code', 'id'], BY_PLACE, replace);

export const writeTransit = (build: SnapshotBuild, replace: boolean) =>
  writeKeyed(build, 'transit_stops', ['country_code', 'id'], BY_PLACE, replace);

/**
 * An import of a division's indicators replaces its generated ones, whatever their years: a
 * generated value of a later year had been taken over a published one, under a heading of
 * published figures.
 */
export const writeIndicators = (build: SnapshotBuild, replace: boolean) =>
  writeKeyed(
    build,
    'indicators',
    ['country_code', 'level', 'division_id', 'indicator', 'year'],
    'country_code, level, division_id, indicator, year',
    replace,
    `o.source is not distinct from ${sqlString(DEMO_SOURCE)} and exists (
       select 1 from clean c where c.country_code = o.country_code and c.level = o.level
         and c.division_id = o.division_id)`,
  );
