import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { convertViennaRent } from '../market/convert/vienna-rent.js';
import { openDuck, queryOne, queryRows, sqlString } from '../market/duck.js';
import { importFile } from '../market/import/run-import.js';
import type { Progress } from '../market/progress.js';
import { currentSnapshot, marketPaths } from '../market/snapshots.js';
import { median, runBacktest, type BacktestReport } from './backtest.js';

/** The listings the Vienna benchmark uses: Vienna proper, plausible sizes and rents. */
const VIENNA_FILTER = `"State" = 'Wien'
  and try_cast(nullif("Size (m²)", 'N/A') as double) between 15 and 400
  and try_cast(coalesce(nullif("Rent (€)", 'N/A'), nullif("Price", 'N/A')) as double) between 200 and 20000`;

export interface ViennaReport {
  listings: number;
  splitDate: string;
  model: BacktestReport;
  /** Median rent per m² of the postcode (training listings) × living area. */
  naiveMdape: number;
}

/**
 * The Vienna real-rent benchmark: listings sorted by first sighting, the last 20% valued from the
 * first 80% (converted and imported into a temporary data dir with the ordinary converter and
 * importer), with the naive postcode-median model on the same split.
 */
export async function viennaBacktest(source: string, progress?: Progress): Promise<ViennaReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'propdata-vienna-'));
  try {
    const filtered = path.join(dir, 'filtered.csv');
    const canonical = path.join(dir, 'offers.csv');
    {
      const instance = await openDuck(':memory:');
      const db = await instance.connect();
      try {
        await db.run(
          `copy (select * from read_csv(${sqlString(source)}, header = true, all_varchar = true) where ${VIENNA_FILTER})
           to ${sqlString(filtered)} (header)`,
        );
      } finally {
        db.closeSync();
        instance.closeSync();
      }
    }
    await convertViennaRent(filtered, canonical);
    const dataDir = path.join(dir, 'data');
    await importFile(dataDir, 'offers', canonical, progress ? { progress } : {});
    const file = currentSnapshot(marketPaths(dataDir));
    if (!file) throw new Error('the import made no snapshot');
    const instance = await openDuck(file, { readOnly: true });
    const db = await instance.connect();
    try {
      const split = await queryOne(
        db,
        `select count(*)::integer as n, strftime(quantile_disc(start_date, 0.8), '%Y-%m-%d') as split from offers`,
      );
      const listings = Number(split?.n ?? 0);
      const splitDate = String(split?.split);
      const testCount = Number(
        (
          await queryOne(db, 'select count(*)::integer as n from offers where start_date >= $1', [
            splitDate,
          ])
        )?.n ?? 0,
      );
      const naive = await queryRows(
        db,
        `with train as (
           select division_level100 as pc, median(rent_gross / living_area) as ppm2
           from offers where start_date < $1 group by pc)
         select abs(t.ppm2 * o.living_area - o.rent_gross) / o.rent_gross as ape
         from offers o left join train t on t.pc = o.division_level100 where o.start_date >= $1`,
        [splitDate],
      );
      const naiveMdape = median(naive.map((r) => (r.ape === null ? 1 : Number(r.ape))));
      const model = await runBacktest(db, {
        sample: testCount,
        seed: 1,
        splitDate,
        ...(progress ? { progress } : {}),
      });
      return { listings, splitDate, model, naiveMdape };
    } finally {
      db.closeSync();
      instance.closeSync();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
