import { expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/backends.js';
import { queryOne, queryRows } from './duck.js';
import { generateDemoData } from './generate/generate.js';
import { MarketStore } from './market-store.js';
import type { DivisionKey } from './queries/division-slice.js';

it('sizes each snapshot instance as configured', async () => {
  const store = await MarketStore.open(tempDir(), { threads: 1, memoryLimit: '256MB' });
  try {
    const row = await store.read((db) =>
      queryOne(
        db,
        "select current_setting('threads')::integer as threads, current_setting('memory_limit') as memory",
      ),
    );
    expect(row?.threads).toBe(1);
    // DuckDB reports the limit in binary units: 256 MB = 244.1 MiB.
    expect(row?.memory).toBe('244.1 MiB');
  } finally {
    store.close();
  }
});

it('loads the busiest divisions of the old snapshot into a new one after a switch', async () => {
  const dataDir = tempDir();
  await generateDemoData(dataDir, { offers: 2000, projects: 0, seed: 1 });
  const store = await MarketStore.open(dataDir, { sliceBudgetBytes: 64 * 2 ** 20 });
  try {
    const [busy] = await store.read((db) =>
      queryRows(
        db,
        `select country_code, division_level8 as id from offers where division_level8 is not null
         group by all order by count(*) desc limit 1`,
      ),
    );
    const key = { countryCode: busy?.country_code, level: 8, id: String(busy?.id) } as DivisionKey;
    const slice = await store.read((_, view) => view.divisionSlice(key));
    expect(slice?.length).toBeGreaterThan(0);
    expect(store.sliceCache.divisions).toBe(1);

    await generateDemoData(dataDir, { offers: 2000, projects: 0, seed: 2 });
    expect(await store.refresh()).toBe(true);
    await store.warmed();
    // The new snapshot holds the division already, without a request for it.
    expect(store.sliceCache.divisions).toBe(1);
    expect(store.sliceCache.bytes).toBeGreaterThan(0);
  } finally {
    store.close();
  }
});
