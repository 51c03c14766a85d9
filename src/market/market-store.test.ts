import { expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/backends.js';
import { queryOne } from './duck.js';
import { MarketStore } from './market-store.js';

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
