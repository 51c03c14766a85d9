// Market data benchmark: demo generation and CSV import of 1 M offers on this machine.
// Run with `npm run bench -- market [--offers N]`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sqlString } from '../src/market/duck.js';
import { generateDemoData } from '../src/market/generate/generate.js';
import { importFile } from '../src/market/import/run-import.js';
import { terminalProgress } from '../src/market/progress.js';
import { offerSizes, openBenchSnapshot } from './data.js';

const CANONICAL = `country_code as countryCode, id, deal_type as dealType, property_type as propertyType,
  start_date as startDate, end_date as endDate, is_active as isActive, is_new as isNew,
  is_private as isPrivate, sale_price as salePrice, rent_gross as rentGross, rent_net as rentNet,
  living_area as livingArea, number_of_rooms as numberOfRooms, number_of_bedrooms as numberOfBedrooms,
  building_year as buildingYear, has_open_kitchen as hasOpenKitchen, days_on_market as daysOnMarket,
  latitude, longitude, postal_code as postalCode, title`;

async function exportCsv(dataDir: string, target: string): Promise<void> {
  const snapshot = await openBenchSnapshot(dataDir);
  try {
    // Division ids left out on purpose: the import derives them from the postcode.
    await snapshot.db.run(
      `copy (select ${CANONICAL} from offers order by random()) to ${sqlString(target)} (header)`,
    );
  } finally {
    snapshot.close();
  }
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, (performance.now() - started) / 1000];
}

export async function benchMarket(args: string[]): Promise<string> {
  const offers = offerSizes(args, [1_000_000])[0] ?? 1_000_000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'propdata-bench-'));
  try {
    const progress = terminalProgress();
    const [, generateSeconds] = await timed(() =>
      generateDemoData(path.join(dir, 'gen'), { offers, projects: 5000, seed: 1, progress }),
    );
    const csvFile = path.join(dir, 'offers.csv');
    await exportCsv(path.join(dir, 'gen'), csvFile);
    const megabytes = fs.statSync(csvFile).size / 1e6;
    const importDir = path.join(dir, 'import');
    // The first import of a data dir also builds its divisions; time the offer import alone.
    await importFile(importDir, 'divisions', path.join('reference', 'divisions.csv.gz'));
    const [report, importSeconds] = await timed(() =>
      importFile(importDir, 'offers', csvFile, { progress }),
    );
    const [, reimportSeconds] = await timed(() =>
      importFile(importDir, 'offers', csvFile, { progress }),
    );
    if (report.imported !== offers) throw new Error(`imported ${report.imported} of ${offers}`);
    return [
      '| measurement | result | note |',
      '| --- | --- | --- |',
      `| demo generation, ${offers.toLocaleString('en')} offers | ${generateSeconds.toFixed(1)} s | target < 30 s |`,
      `| CSV import into a new data dir (${megabytes.toFixed(0)} MB, ${offers.toLocaleString('en')} offers, divisions derived from postcodes) | ${importSeconds.toFixed(1)} s | target < 10 s |`,
      `| CSV import of the same file again (upsert: every row replaces one) | ${reimportSeconds.toFixed(1)} s | |`,
    ].join('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
