import {
  buildSnapshot,
  copyPlacesInfo,
  copyPrevious,
  copyTruth,
  MARKET_TABLES,
  type MarketTable,
  type SnapshotBuild,
} from '../build-snapshot.js';
import { queryOne, queryRows } from '../duck.js';
import { silentProgress, steps, type Progress } from '../progress.js';
import { currentSnapshot, marketPaths } from '../snapshots.js';
import { REFERENCE_DIVISIONS_FILE } from '../divisions/reference.js';
import { DIVISION_FIELDS, prepareDivisions, writeDivisions } from './divisions.js';
import type { FieldSpec } from './fields.js';
import { OFFER_FIELDS, prepareOffers, writeOffers } from './offers.js';
import {
  INDICATOR_FIELDS,
  POI_FIELDS,
  prepareIndicators,
  preparePois,
  prepareTransit,
  TRANSIT_FIELDS,
  writeIndicators,
  writePois,
  writeTransit,
} from './places.js';
import { PROJECT_FIELDS, prepareProjects, writeProjects } from './projects.js';
import { loadIncoming } from './source.js';

import type { ImportEntity } from './entities.js';

export interface ImportOptions {
  /** Replace all rows of the entity instead of adding to them (upsert by id). */
  replace?: boolean;
  /** Refuse the whole file, changing nothing, if any row is invalid. */
  strict?: boolean;
  /** The date imports derive activity and days on market against (default: today, UTC). */
  today?: string;
  progress?: Progress;
}

export interface Rejection {
  line: number;
  reason: string;
}

export interface ImportReport {
  entity: ImportEntity;
  file: string;
  read: number;
  imported: number;
  rejected: number;
  /** The first rejected rows, in file order. */
  rejections: Rejection[];
  /** Rows of the entity in the new snapshot. */
  total: number;
}

/** How many rejected rows are listed with line and reason; all are counted. */
export const REPORTED_REJECTIONS = 20;

export class StrictImportError extends Error {
  constructor(readonly report: ImportReport) {
    super(
      `${report.rejected} invalid row${report.rejected === 1 ? '' : 's'}: nothing was imported (--strict)`,
    );
  }
}

interface EntityPlan {
  fields: readonly FieldSpec[];
  table: MarketTable;
  /** `columns`: the fields the file has a column for. */
  prepare(build: SnapshotBuild, today: string, columns: ReadonlySet<string>): Promise<void>;
  write(build: SnapshotBuild, replace: boolean): Promise<void>;
}

const PLANS: Record<ImportEntity, EntityPlan> = {
  offers: { fields: OFFER_FIELDS, table: 'offers', prepare: prepareOffers, write: writeOffers },
  projects: {
    fields: PROJECT_FIELDS,
    table: 'projects',
    prepare: prepareProjects,
    write: writeProjects,
  },
  divisions: {
    fields: DIVISION_FIELDS,
    table: 'divisions',
    prepare: prepareDivisions,
    write: writeDivisions,
  },
  pois: { fields: POI_FIELDS, table: 'pois', prepare: preparePois, write: writePois },
  transit: {
    fields: TRANSIT_FIELDS,
    table: 'transit_stops',
    prepare: prepareTransit,
    write: writeTransit,
  },
  indicators: {
    fields: INDICATOR_FIELDS,
    table: 'indicators',
    prepare: prepareIndicators,
    write: writeIndicators,
  },
};

const utcToday = () => new Date().toISOString().slice(0, 10);

async function count(build: SnapshotBuild, sql: string): Promise<number> {
  return Number((await queryOne(build.db, sql))?.n ?? 0);
}

async function importInto(
  build: SnapshotBuild,
  entity: ImportEntity,
  file: string,
  options: ImportOptions,
): Promise<ImportReport> {
  const plan = PLANS[entity];
  const progress = steps(options.progress ?? silentProgress, `import ${entity}`, [
    'reading',
    'checking',
    'writing',
    'done',
  ]);
  // Tables the import does not touch come over unchanged; divisions first, offers derive from them.
  for (const table of MARKET_TABLES) {
    if (table !== plan.table) await copyPrevious(build, table);
  }
  // The demo truth describes the generated offers only: an offers import drops it.
  if (plan.table !== 'offers') await copyTruth(build);
  // A replaced indicators table has no generated indicators left to describe.
  if (plan.table !== 'indicators' || options.replace !== true) await copyPlacesInfo(build);
  const columns = await loadIncoming(build.db, file, plan.fields);
  progress.next();
  await plan.prepare(build, options.today ?? utcToday(), columns);
  progress.next();
  const rejected = await count(
    build,
    'select count(*)::integer as n from checked where reason is not null',
  );
  const rejections = (
    await queryRows(
      build.db,
      `select line, reason from checked where reason is not null order by line limit ${REPORTED_REJECTIONS}`,
    )
  ).map((r) => ({ line: Number(r.line), reason: String(r.reason) }));
  const report: ImportReport = {
    entity,
    file,
    read: await count(build, 'select count(*)::integer as n from incoming'),
    imported: await count(build, 'select count(*)::integer as n from clean'),
    rejected,
    rejections,
    total: 0,
  };
  if (options.strict && rejected > 0) {
    progress.finish();
    throw new StrictImportError(report);
  }
  await plan.write(build, options.replace === true);
  report.total = await count(build, `select count(*)::integer as n from ${plan.table}`);
  progress.finish();
  return report;
}

/**
 * Makes sure the data dir has a market snapshot: the first use of a data dir, by any command,
 * creates one holding the shipped reference divisions.
 */
export async function ensureMarketData(dataDir: string): Promise<void> {
  if (currentSnapshot(marketPaths(dataDir))) return;
  await buildSnapshot(dataDir, async (build) => {
    if (build.hasPrevious) {
      // Another process created the first snapshot while this one waited: keep its data.
      for (const table of MARKET_TABLES) await copyPrevious(build, table);
      await copyTruth(build);
      await copyPlacesInfo(build);
      return;
    }
    await importInto(build, 'divisions', REFERENCE_DIVISIONS_FILE, {});
  });
}

/** Imports a file of one entity into a new snapshot and makes it current. */
export async function importFile(
  dataDir: string,
  entity: ImportEntity,
  file: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  await ensureMarketData(dataDir);
  return buildSnapshot(dataDir, (build) => importInto(build, entity, file, options));
}
