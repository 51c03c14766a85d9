import { openDuck, queryOne } from './duck.js';
import { ensureMarketData } from './import/run-import.js';
import { currentSnapshot, marketPaths } from './snapshots.js';

/** Number of offers in the current snapshot of a data dir (creating the first one if needed). */
export async function countOffers(dataDir: string): Promise<number> {
  await ensureMarketData(dataDir);
  const file = currentSnapshot(marketPaths(dataDir));
  if (!file) return 0;
  const instance = await openDuck(file, { readOnly: true });
  const db = await instance.connect();
  try {
    return Number((await queryOne(db, 'select count(*)::integer as n from offers'))?.n ?? 0);
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}
