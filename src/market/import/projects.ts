import { COUNTRIES } from '../countries.js';
import type { SnapshotBuild } from '../build-snapshot.js';
import { PROJECT_STATUSES } from '../schema.js';
import { fieldChecks, fieldValue, reasonExpression, type FieldSpec } from './fields.js';

/** The canonical building project format (README "Import formats"). */
export const PROJECT_FIELDS: readonly FieldSpec[] = [
  // Same order as the projects table.
  { name: 'countryCode', kind: 'country', required: true, values: COUNTRIES },
  { name: 'id', kind: 'text', required: true, maxLength: 200 },
  { name: 'name', kind: 'text', required: true, maxLength: 300 },
  { name: 'latitude', kind: 'latitude', required: true, min: -90, max: 90 },
  { name: 'longitude', kind: 'longitude', required: true, min: -180, max: 180 },
  { name: 'postalCode', kind: 'text', maxLength: 20 },
  { name: 'status', kind: 'enum', required: true, values: PROJECT_STATUSES },
  { name: 'numberOfUnits', kind: 'integer', min: 0, max: 1_000_000 },
  { name: 'constructionStartYear', kind: 'integer', min: 1800, max: 2100 },
  { name: 'completionYear', kind: 'integer', min: 1800, max: 2100 },
  { name: 'isResidential', kind: 'boolean', required: true },
  { name: 'isCommercial', kind: 'boolean', required: true },
];

export async function prepareProjects(build: SnapshotBuild): Promise<void> {
  const rules: [string, string][] = [
    ...PROJECT_FIELDS.flatMap(fieldChecks),
    [
      'try_cast("completionYear" as integer) < try_cast("constructionStartYear" as integer)',
      "'completionYear is before constructionStartYear'",
    ],
  ];
  await build.db.run(`
    create temp table checked as select i.*, ${reasonExpression(rules)} as reason from incoming i`);
  await build.db.run(`
    create temp table clean as
    select ${PROJECT_FIELDS.map((f) => `${f.name === 'id' || f.name === 'name' ? `trim("${f.name}")` : fieldValue(f)} as "${f.name}"`).join(', ')}
    from checked where reason is null
    qualify row_number() over (partition by upper("countryCode"), trim("id") order by line desc) = 1`);
}

export async function writeProjects(build: SnapshotBuild, replace: boolean): Promise<void> {
  const kept =
    build.hasPrevious && !replace
      ? `select * from prev.projects o
       where not exists (select 1 from clean c where c."countryCode" = o.country_code and c.id = o.id)
       union all`
      : '';
  await build.db.run(`
    insert into projects
    select * from (${kept} select * from clean) order by 1, 2`);
}
