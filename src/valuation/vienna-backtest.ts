import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkViennaRentSource, convertViennaRent } from '../market/convert/vienna-rent.js';
import { openDuck, queryOne, sqlString } from '../market/duck.js';
import { silentProgress, type Progress } from '../market/progress.js';
import { reportOf, valueHeldOut, type BacktestReport } from './backtest.js';
import { compareWithBaselines, type BaselineComparison } from './baseline-comparison.js';
import { withImportedOffers } from './file-backtest.js';

/** The listings the Vienna benchmark uses: Vienna proper, plausible sizes and rents. */
const VIENNA_FILTER = `"State" = 'Wien'
  and try_cast(nullif("Size (m²)", 'N/A') as double) between 15 and 400
  and try_cast(coalesce(nullif("Rent (€)", 'N/A'), nullif("Price", 'N/A')) as double) between 200 and 20000`;

export interface ViennaReport {
  listings: number;
  splitDate: string;
  model: BacktestReport;
  /** Both baselines on the same cases; the listings have no coordinates, so kNN values none. */
  baselines: BaselineComparison;
}

/**
 * The Vienna real-rent benchmark: listings sorted by first sighting, the last 20% valued from the
 * first 80% (converted and imported into a temporary data dir with the ordinary converter and
 * importer), with the baselines on the same split.
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
        await checkViennaRentSource(db, source);
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
    return await withImportedOffers(canonical, progress ?? silentProgress, async (db) => {
      const split = await queryOne(
        db,
        `select count(*)::integer as n, strftime(quantile_disc(start_date, 0.8), '%Y-%m-%d') as split from offers`,
      );
      const listings = Number(split?.n ?? 0);
      const splitDate = String(split?.split);
      const held = await valueHeldOut(db, {
        seed: 1,
        splitDate,
        ...(progress ? { progress } : {}),
      });
      const model = reportOf(
        held.flatMap((h) => (h.estimate ? [h.estimate] : [])),
        held.length,
      );
      const baselines = await compareWithBaselines(db, held, { splitDate, deal: 'rent' });
      return { listings, splitDate, model, baselines };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
