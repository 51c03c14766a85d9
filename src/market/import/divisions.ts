import { COUNTRIES } from '../countries.js';
import type { SnapshotBuild } from '../build-snapshot.js';
import { fieldChecks, fieldValue, reasonExpression, type FieldSpec } from './fields.js';

/** The canonical division format; the shipped reference file uses it too. */
export const DIVISION_FIELDS: readonly FieldSpec[] = [
  { name: 'countryCode', kind: 'country', required: true, values: COUNTRIES },
  { name: 'level', kind: 'enum', required: true, values: ['6', '8', '100'] },
  { name: 'id', kind: 'text', required: true, maxLength: 40 },
  { name: 'name', kind: 'text', required: true, maxLength: 300 },
  { name: 'level6Id', kind: 'text', maxLength: 40 },
  { name: 'level8Id', kind: 'text', maxLength: 40 },
  { name: 'latitude', kind: 'latitude', min: -90, max: 90 },
  { name: 'longitude', kind: 'longitude', min: -180, max: 180 },
];

export async function prepareDivisions(build: SnapshotBuild): Promise<void> {
  const rules: [string, string][] = [
    ...DIVISION_FIELDS.flatMap(fieldChecks),
    ['("latitude" is null) <> ("longitude" is null)', "'latitude and longitude go together'"],
  ];
  await build.db.run(`
    create temp table checked as select i.*, ${reasonExpression(rules)} as reason from incoming i`);
  await build.db.run(`
    create temp table clean as
    select upper("countryCode") as country_code, "level"::integer as level,
           ${fieldValue({ name: 'id', kind: 'text' })} as id, trim("name") as name,
           "level6Id" as level6_id, "level8Id" as level8_id,
           ${fieldValue({ name: 'latitude', kind: 'latitude' })} as latitude,
           ${fieldValue({ name: 'longitude', kind: 'longitude' })} as longitude
    from checked where reason is null
    qualify row_number() over (partition by upper("countryCode"), "level", trim("id") order by line desc) = 1`);
}

export async function writeDivisions(build: SnapshotBuild, replace: boolean): Promise<void> {
  const kept =
    build.hasPrevious && !replace
      ? `select * from prev.divisions o where not exists (
         select 1 from clean c where c.country_code = o.country_code and c.level = o.level and c.id = o.id)
       union all`
      : '';
  await build.db.run(
    `insert into divisions select * from (${kept} select * from clean) order by 1, 2, 3`,
  );
}
