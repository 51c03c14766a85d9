import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { inject } from 'vitest';
import { openDuck, queryRows, type Row } from '../../src/market/duck.js';
import type { ImportEntity } from '../../src/market/import/entities.js';
import { importFile } from '../../src/market/import/run-import.js';
import { generateDemoData, type GenerateOptions } from '../../src/market/generate/generate.js';
import { currentSnapshot, marketPaths, publishSnapshot } from '../../src/market/snapshots.js';
import { tempDir } from './temp-dirs.js';
import type { World } from './world.js';

/**
 * A new data dir whose market holds the shipped reference divisions, as after a first start:
 * a copy of the one made once per test run (test/helpers/market-template.ts).
 */
export function referenceDataDir(): string {
  const dataDir = path.join(tempDir(), 'data');
  fs.cpSync(inject('marketTemplate'), marketPaths(dataDir).dir, { recursive: true });
  return dataDir;
}

/** Runs a query on the current snapshot of a data dir, opened read-only just for it. */
export async function snapshotRows(dataDir: string, sql: string): Promise<Row[]> {
  const file = currentSnapshot(marketPaths(dataDir));
  if (!file) throw new Error(`no snapshot in ${dataDir}`);
  const instance = await openDuck(file, { readOnly: true });
  const db = await instance.connect();
  try {
    return await queryRows(db, sql);
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

/**
 * A new data dir with the reference divisions and these offers imported (CSV rows under
 * `header`), and a read-only connection to its snapshot; `close` closes both.
 */
export async function snapshotOfOffers(
  header: string[],
  rows: (string | number | boolean | null)[][],
  today: string,
): Promise<{ db: DuckDBConnection; close: () => void }> {
  const dataDir = referenceDataDir();
  await importFile(dataDir, 'offers', writeFile(tempDir(), 'offers.csv', csv(header, rows)), {
    today,
  });
  const file = currentSnapshot(marketPaths(dataDir));
  if (!file) throw new Error(`no snapshot in ${dataDir}`);
  const instance = await openDuck(file, { readOnly: true });
  const db = await instance.connect();
  return {
    db,
    close: () => {
      db.closeSync();
      instance.closeSync();
    },
  };
}

export function writeFile(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** The columns every offer row needs, in the order test files list them first. */
export const OFFER_KEY_COLUMNS = ['id', 'countryCode', 'dealType', 'propertyType', 'startDate'];

/** The columns of rental listings known by their postcode and address, as Vienna's. */
export const ADDRESSED_RENT_COLUMNS = [
  ...OFFER_KEY_COLUMNS,
  'rentGross',
  'livingArea',
  'postalCode',
  'street',
  'houseNumber',
];

/**
 * A row of ADDRESSED_RENT_COLUMNS: a flat let in 2025, its month and day drawn from `random`,
 * its rent rounded to the cent.
 */
export function addressedRent(
  random: { int: (min: number, max: number) => number },
  listing: {
    id: string;
    rent: number;
    area: number;
    postcode: string;
    street: string;
    house: string;
  },
): (string | number)[] {
  const month = 1 + random.int(0, 19);
  return [
    listing.id,
    'AT',
    'rent',
    'apartment',
    `2025-${String(1 + (month % 12)).padStart(2, '0')}-${month > 12 ? '20' : '10'}`,
    Math.round(listing.rent * 100) / 100,
    listing.area,
    listing.postcode,
    listing.street,
    listing.house,
  ];
}

/** The columns of an offer's facts and prices that the statistics read, after the key columns. */
export const OFFER_FACT_COLUMNS = [
  'isActive',
  'isNew',
  'isPrivate',
  'salePrice',
  'rentGross',
  'rentNet',
  'livingArea',
  'numberOfRooms',
  'buildingYear',
  'daysOnMarket',
  'latitude',
  'longitude',
];

/** Every column of the indicators format. */
export const INDICATOR_COLUMNS = [
  'countryCode',
  'level',
  'divisionId',
  'indicator',
  'year',
  'value',
  'unit',
  'source',
];

/** Every column of the project format, in the order of its table. */
export const PROJECT_COLUMNS = [
  'countryCode',
  'id',
  'name',
  'latitude',
  'longitude',
  'postalCode',
  'status',
  'numberOfUnits',
  'constructionStartYear',
  'completionYear',
  'isResidential',
  'isCommercial',
];

const cell = (v: string | number | boolean | null): string =>
  v === null ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v);

/** Rows as CSV with the given header; null is an empty field. */
export function csv(header: string[], rows: (string | number | boolean | null)[][]): string {
  return [header.join(','), ...rows.map((r) => r.map(cell).join(','))].join('\n') + '\n';
}

/** Converts a CSV file into another format with DuckDB itself (Parquet, NDJSON, gzip). */
export async function convertWithDuckDb(
  source: string,
  target: string,
  format: 'parquet' | 'json',
  gzip = false,
): Promise<void> {
  const instance = await openDuck(':memory:');
  const db = await instance.connect();
  try {
    const options =
      format === 'parquet' ? 'format parquet' : `format json${gzip ? ', compression gzip' : ''}`;
    await db.run(
      `copy (select * from read_csv('${source}', header = true, all_varchar = true)) to '${target}' (${options})`,
    );
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

/**
 * Imports `rows` under `header` into a world's market (as of `today` where the entity has dates),
 * refusing the whole file if a row is bad (strict), and makes the app read the new snapshot.
 */
export async function importRows(
  world: World,
  entity: ImportEntity,
  header: string[],
  rows: (string | number | boolean | null)[][],
  today?: string,
): Promise<void> {
  const file = writeFile(tempDir(), `${entity}.csv`, csv(header, rows));
  await importFile(world.config.dataDir, entity, path.resolve(file), { strict: true, today });
  await world.stores.market.refresh();
}

const demoMarkets = new Map<string, Promise<string>>();

/**
 * A data dir with demo data generated with `options`, once per test file (generating takes
 * seconds): read it as it is, or change a copy (`publishCopyOfMarket`).
 */
export function demoMarket(options: GenerateOptions): Promise<string> {
  const key = JSON.stringify(options);
  let dataDir = demoMarkets.get(key);
  if (!dataDir) {
    dataDir = (async () => {
      const dir = referenceDataDir();
      await generateDemoData(dir, options);
      return dir;
    })();
    demoMarkets.set(key, dataDir);
  }
  return dataDir;
}

/** Makes a copy of `source`'s current snapshot the current one of `dataDir`, as an import would. */
export function publishCopyOfMarket(source: string, dataDir: string): void {
  const snapshot = currentSnapshot(marketPaths(source));
  if (!snapshot) throw new Error(`no snapshot in ${source}`);
  const paths = marketPaths(dataDir);
  const copy = path.join(paths.dir, path.basename(snapshot));
  fs.copyFileSync(snapshot, copy);
  publishSnapshot(paths, copy);
}
