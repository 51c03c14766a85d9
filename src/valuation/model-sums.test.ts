import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/backends.js';
import { openDuck, queryRows, type Row } from '../market/duck.js';
import { generateDemoData } from '../market/generate/generate.js';
import { currentSnapshot, marketPaths } from '../market/snapshots.js';
import { hasModelSums, postcodeMonthRows, regionMonthRows, type SumsKey } from './model-sums.js';

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Rows keyed by their non-sum columns, every value a number (or string key). */
function byKey(rows: Row[], keys: string[]): Map<string, Row> {
  return new Map(rows.map((r) => [keys.map((k) => String(r[k])).join('|'), r]));
}

function expectSameSums(a: Row[], b: Row[], keys: string[]): void {
  expect(a.length).toBe(b.length);
  const other = byKey(b, keys);
  for (const [key, row] of byKey(a, keys)) {
    const twin = other.get(key);
    expect(twin, key).toBeDefined();
    for (const [column, value] of Object.entries(row)) {
      if (keys.includes(column)) continue;
      const ok = close(Number(value), Number(twin?.[column]));
      if (!ok) expect({ key, column, value }).toEqual({ key, column, value: twin?.[column] });
    }
  }
}

describe('model sums precomputed with the snapshot', () => {
  let instance: DuckDBInstance;
  let db: DuckDBConnection;

  beforeAll(async () => {
    const dataDir = path.join(tempDir(), 'data');
    await generateDemoData(dataDir, { offers: 20_000, projects: 5, seed: 11, today: '2026-11-21' });
    const file = currentSnapshot(marketPaths(dataDir));
    if (!file) throw new Error('no snapshot');
    instance = await openDuck(file, { readOnly: true });
    db = await instance.connect();
  });
  afterAll(() => {
    db.closeSync();
    instance.closeSync();
  });

  it('are written into every new snapshot', async () => {
    expect(await hasModelSums(db)).toBe(true);
  });

  it('equal the sums computed from the offers at query time, for every kind of region', async () => {
    const regions = await queryRows(
      db,
      // Per deal type and kind of region: the four busiest and the two quietest regions.
      `select * from (
         select country_code, deal_type, division_level6 as level6,
                case when division_level6 is null then division_level8 end as level8,
                count(*) as n
           from offers group by all)
       window w as (partition by deal_type, level6 is null, level8 is null)
       qualify row_number() over (w order by n desc, country_code) <= 4
            or row_number() over (w order by n, country_code) <= 2
       order by all`,
    );
    const kinds = new Set(regions.map((r) => (r.level6 ? 'level6' : r.level8 ? 'level8' : 'none')));
    expect(kinds.has('level6')).toBe(true);
    let compared = 0;
    for (const r of regions) {
      const key: SumsKey = {
        countryCode: String(r.country_code),
        deal: r.deal_type === 'sale' ? 'sale' : 'rent',
        postcode: {
          level6: r.level6 === null ? null : String(r.level6),
          level8: r.level8 === null ? null : String(r.level8),
        },
      };
      expectSameSums(await regionMonthRows(db, key, true), await regionMonthRows(db, key, false), [
        'month',
      ]);
      expectSameSums(
        await postcodeMonthRows(db, key, true),
        await postcodeMonthRows(db, key, false),
        ['postcode', 'month'],
      );
      compared += 1;
    }
    expect(compared).toBeGreaterThanOrEqual(12);
  });

  it('count the usable offers of a region and sum their log price per m²', async () => {
    // Written here independently of the model's SQL: sale offers of the busiest level-6 region
    // with a positive price and 10–2000 m².
    const [busiest] = await queryRows(
      db,
      `select country_code, division_level6 as region, count(*)::integer as n,
              sum(ln(sale_price / living_area)) as sy
         from offers
        where deal_type = 'sale' and division_level6 is not null and sale_price > 0
          and living_area >= 10 and living_area <= 2000
        group by all order by n desc limit 1`,
    );
    if (!busiest) throw new Error('no sale offers');
    const rows = await regionMonthRows(
      db,
      {
        countryCode: String(busiest.country_code),
        deal: 'sale',
        postcode: { level6: String(busiest.region), level8: null },
      },
      true,
    );
    expect(rows.length).toBeGreaterThan(12);
    expect(rows.reduce((s, r) => s + Number(r.n), 0)).toBe(busiest.n);
    expect(
      close(
        rows.reduce((s, r) => s + Number(r.sy), 0),
        Number(busiest.sy),
      ),
    ).toBe(true);
  });
});
