import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/backends.js';
import {
  csv,
  OFFER_KEY_COLUMNS,
  referenceDataDir,
  snapshotRows,
  writeFile,
} from '../../test/helpers/market.js';
import { importFile } from './import/run-import.js';

describe('offers ordered by place', () => {
  it('keeps offers at one point in id order, so every build gives the same rows', async () => {
    // 600 sales at one point, written in a scrambled order: a search that reaches 300 of them
    // takes them by their row, which a parallel sort alone would leave to chance.
    const ids = Array.from(
      { length: 600 },
      (_, i) => `p-${String((i * 367) % 600).padStart(3, '0')}`,
    );
    // Their months in another order than their ids: the offers table is ordered by month.
    const rows = ids.map((id, i) => [
      id,
      'AT',
      'sale',
      'apartment',
      `2026-${String(1 + (i % 9)).padStart(2, '0')}-04`,
      300000,
      60,
      '1100',
      48.17,
      16.38,
    ]);
    const header = [
      ...OFFER_KEY_COLUMNS,
      'salePrice',
      'livingArea',
      'postalCode',
      'latitude',
      'longitude',
    ];
    const dataDir = referenceDataDir();
    await importFile(dataDir, 'offers', writeFile(tempDir(), 'o.csv', csv(header, rows)), {
      today: '2026-11-24',
    });
    const placed = await snapshotRows(dataDir, 'select id from offers_by_place order by rowid');
    expect(placed.map((r) => String(r.id))).toEqual([...ids].sort());
  });
});
