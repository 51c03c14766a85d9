import { expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/backends.js';
import { generateDemoData } from '../market/generate/generate.js';
import { MarketStore } from '../market/market-store.js';
import { currentSnapshot, marketPaths } from '../market/snapshots.js';
import type { ValuationRequest, ValueProperty } from './types.js';
import { warmAfterSwitch } from './warm-after-switch.js';

it('values the recent requests again on a new snapshot, newest first, each once', async () => {
  const dataDir = tempDir();
  const store = await MarketStore.open(dataDir);
  // A stand-in model that records the snapshot and request of each call.
  const calls: { snapshot: string; date: string }[] = [];
  const model: ValueProperty = (_db, request) => {
    calls.push({ snapshot: store.snapshotFile, date: request.date });
    if (request.date === '2025-01-03') return Promise.reject(new Error('cannot value this one'));
    return Promise.resolve({}) as never;
  };
  const warm = warmAfterSwitch(model, store);
  try {
    const request = (date: string): ValuationRequest => ({
      property: { countryCode: 'AT', propertyType: 'apartment' } as never,
      dealType: 'sale',
      date,
    });
    for (const date of ['2025-01-01', '2025-01-02', '2025-01-01', '2025-01-03']) {
      await store.read((db) => warm.valueProperty(db, request(date))).catch(() => undefined);
    }
    const before = store.snapshotFile;
    calls.length = 0;
    await generateDemoData(dataDir, { offers: 500, projects: 0, seed: 3 });
    expect(await store.refresh()).toBe(true);
    await warm.warmed();
    const after = currentSnapshot(marketPaths(dataDir));
    expect(after).not.toBe(before);
    // Distinct requests, most recent first; the failing one does not stop the others.
    expect(calls).toEqual([
      { snapshot: after, date: '2025-01-03' },
      { snapshot: after, date: '2025-01-01' },
      { snapshot: after, date: '2025-01-02' },
    ]);
  } finally {
    warm.stop();
    store.close();
  }
});
