import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceDataDir } from '../../test/helpers/market.js';
import { openDuck, queryRows } from '../market/duck.js';
import { generateDemoData } from '../market/generate/generate.js';
import { currentSnapshot, marketPaths } from '../market/snapshots.js';
import { countryPoolSums } from './country-sums.js';
import { FEATURE_COUNT } from './features.js';
import { indexAt, type MonthStats } from './hedonic.js';
import { regionMonthStats, type SumsKey } from './model-sums.js';
import { countryEffects, pooledIndex } from './pooled-index.js';
import { regionalModel } from './regional-model.js';
import { snapshotCache } from './snapshot-cache.js';

const K = FEATURE_COUNT;

function expectClose(a: number, b: number, what: string): void {
  if (Math.abs(a - b) > 1e-8 * Math.max(1, Math.abs(a), Math.abs(b)))
    expect({ what, value: a }).toEqual({ what, value: b });
}

describe('country sums written with the snapshot', () => {
  let instance: DuckDBInstance;
  let db: DuckDBConnection;
  /** The country with the most regions, and its regions as the model names them. */
  let country = '';
  let regions: { kind: string; id: string; key: SumsKey['postcode'] }[] = [];

  beforeAll(async () => {
    const dataDir = referenceDataDir();
    await generateDemoData(dataDir, { offers: 20_000, projects: 5, seed: 12, today: '2026-11-21' });
    const file = currentSnapshot(marketPaths(dataDir));
    if (!file) throw new Error('no snapshot');
    instance = await openDuck(file, { readOnly: true });
    db = await instance.connect();
    const [top] = await queryRows(
      db,
      `select country_code from offers group by all
        order by count(distinct coalesce(division_level6, division_level8, '')) desc limit 1`,
    );
    country = String(top?.country_code);
    const rows = await queryRows(
      db,
      `select distinct division_level6 as l6,
              case when division_level6 is null then division_level8 end as l8
         from offers where country_code = $cc`,
      { cc: country },
    );
    regions = rows
      .map((r) => {
        const level6 = r.l6 === null ? null : String(r.l6);
        const level8 = r.l8 === null ? null : String(r.l8);
        const kind = level6 !== null ? 'level6' : level8 !== null ? 'level8' : 'country';
        return { kind, id: level6 ?? level8 ?? '', key: { level6, level8 } };
      })
      // The order the snapshot numbers them in: by kind, then id.
      .sort((a, b) => (a.kind + '|' + a.id < b.kind + '|' + b.id ? -1 : 1));
  });
  afterAll(() => {
    db.closeSync();
    instance.closeSync();
  });

  it('hold every region-month and the cross products within them, as the offers give them', async () => {
    expect(regions.length).toBeGreaterThan(5);
    const pool = await countryPoolSums(db, country, 'sale', true);
    if (!pool) throw new Error('no pool');
    // Reference: each region's month sums computed from its offers at query time.
    const cells: { region: number; stats: MonthStats }[] = [];
    let region = 0;
    for (const r of regions) {
      const stats = await regionMonthStats(
        db,
        { countryCode: country, deal: 'sale', postcode: r.key },
        false,
      );
      const used = stats.filter((s) => s.n > 0);
      for (const s of used) cells.push({ region, stats: s });
      // Numbered among the regions with offers of the deal type.
      if (used.length > 0) region += 1;
    }
    expect(pool.cells.n.length).toBe(cells.length);
    cells.forEach((c, i) => {
      expect([pool.cells.region[i], pool.cells.month[i]]).toEqual([c.region, c.stats.month]);
      expectClose(pool.cells.n[i] ?? NaN, c.stats.n, `n ${String(i)}`);
      expectClose(pool.cells.sumY[i] ?? NaN, c.stats.sumY, `Σy ${String(i)}`);
      for (let j = 0; j < K; j++)
        expectClose(pool.cells.sumX[i * K + j] ?? NaN, c.stats.sumX[j] ?? NaN, `Σx ${String(i)}`);
    });
    const months = [...new Set(cells.map((c) => c.stats.month))].sort((a, b) => a - b);
    expect(pool.within.map((w) => w.month)).toEqual(months);
    for (const w of pool.within) {
      const of = cells.filter((c) => c.stats.month === w.month).map((c) => c.stats);
      for (let i = 0; i < K; i++) {
        const xy = of.reduce(
          (t, s) => t + (s.sumXY[i] ?? 0) - ((s.sumX[i] ?? 0) * s.sumY) / s.n,
          0,
        );
        expectClose(w.sumXY[i] ?? NaN, xy, `within xy ${String(i)}`);
        for (let j = 0; j < K; j++) {
          const xx = of.reduce(
            (t, s) => t + (s.sumXX[i * K + j] ?? 0) - ((s.sumX[i] ?? 0) * (s.sumX[j] ?? 0)) / s.n,
            0,
          );
          expectClose(w.sumXX[i * K + j] ?? NaN, xx, `within xx ${String(i)},${String(j)}`);
        }
      }
    }
  });

  it('give the regional model an index pooled with the country', async () => {
    const cache = await snapshotCache(db);
    const pool = await countryPoolSums(db, country, 'sale', true);
    if (!pool) throw new Error('no pool');
    // The thinnest region whose own sales still span the months checked below.
    const [thin] = await queryRows(
      db,
      `select division_level6 as l6 from offers
        where country_code = $cc and deal_type = 'sale' and division_level6 is not null
        group by 1 having count(*) >= 40 order by count(*), 1 limit 1`,
      { cc: country },
    );
    const thinnest = regions.find((r) => r.kind === 'level6' && r.id === String(thin?.l6));
    if (!thinnest) throw new Error('no region');
    const postcode = { id: 'x', latitude: 0, longitude: 0, ...thinnest.key };
    const before = 2026 * 12 + 6;
    const model = await regionalModel(db, cache, country, postcode, 'sale', before);
    // Wiring: the model's index is the pooled index (src/valuation/pooled-index.ts, tested on
    // its own there) of the region's fit and the country's effects of the months before.
    const pooled = pooledIndex(model.fit, countryEffects(pool, before));
    for (const month of [before - 30, before - 12, before - 1, before + 3]) {
      expect(model.index(month), `index ${String(month)}`).toBe(pooled(month));
    }
    // Not the region's own index: the country's shape reached it.
    const apart = [before - 30, before - 12, before - 1].map((m) =>
      Math.abs((model.index(m) ?? NaN) - (indexAt(model.fit.months, m) ?? NaN)),
    );
    expect(Math.max(...apart)).toBeGreaterThan(1e-4);
  });

  it('are not read from a snapshot without stored sums', async () => {
    expect(await countryPoolSums(db, country, 'sale', false)).toBeUndefined();
  });
});
