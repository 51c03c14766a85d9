import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceDataDir } from '../../test/helpers/market.js';
import { openDuck, queryRows } from '../market/duck.js';
import { generateDemoData } from '../market/generate/generate.js';
import { currentSnapshot, marketPaths } from '../market/snapshots.js';
import type { HedonicFit, MonthStats } from './hedonic.js';
import {
  hasModelSums,
  MODEL_SUMS_INFO_KEY,
  MODEL_SUMS_VERSION,
  postcodeResiduals,
  POSTCODE_MONTHS_TABLE,
  regionMonthStats,
  regionOf,
  type PostcodeResidual,
  type SumsKey,
} from './model-sums.js';

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function expectClose(a: number, b: number, what: string): void {
  if (!close(a, b)) expect({ what, value: a }).toEqual({ what, value: b });
}

function expectSameStats(a: MonthStats[], b: MonthStats[]): void {
  expect(a.map((m) => m.month)).toEqual(b.map((m) => m.month));
  a.forEach((m, i) => {
    const twin = b[i];
    if (!twin) throw new Error('missing month');
    expectClose(m.n, twin.n, `n ${String(m.month)}`);
    expectClose(m.sumY, twin.sumY, `sumY ${String(m.month)}`);
    for (const name of ['sumX', 'sumXY', 'sumXX'] as const)
      m[name].forEach((v, j) => {
        expectClose(v, twin[name][j] ?? NaN, `${name}[${String(j)}] ${String(m.month)}`);
      });
  });
}

function expectSameResiduals(a: PostcodeResidual[], b: PostcodeResidual[]): void {
  expect(a.map((r) => [r.postcode, r.n])).toEqual(b.map((r) => [r.postcode, r.n]));
  a.forEach((r, i) => {
    expectClose(r.residual, b[i]?.residual ?? NaN, r.postcode);
  });
}

/** An arbitrary fit: month effects for every second month only, so months without one are skipped. */
function someFit(stats: MonthStats[]): HedonicFit {
  const k = stats[0]?.sumX.length ?? 0;
  return {
    beta: Array.from({ length: k }, (_, i) => 0.05 * (i + 1) * (i % 2 ? -1 : 1)),
    months: stats
      .filter((_, i) => i % 2 === 0)
      .map((m, i) => ({ month: m.month, n: m.n, effect: 7 + 0.01 * i })),
  };
}

describe('model sums precomputed with the snapshot', () => {
  let instance: DuckDBInstance;
  let db: DuckDBConnection;
  let snapshotFile: string;

  beforeAll(async () => {
    const dataDir = referenceDataDir();
    await generateDemoData(dataDir, { offers: 20_000, projects: 5, seed: 11, today: '2026-11-21' });
    const file = currentSnapshot(marketPaths(dataDir));
    if (!file) throw new Error('no snapshot');
    snapshotFile = file;
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

  /** hasModelSums on a copy of the snapshot after `change`. */
  async function hasSumsAfter(change: string): Promise<boolean> {
    const copy = path.join(path.dirname(snapshotFile), 'other-sums.duckdb');
    fs.copyFileSync(snapshotFile, copy);
    const writable = await openDuck(copy);
    const w = await writable.connect();
    try {
      await w.run(change);
      return await hasModelSums(w);
    } finally {
      w.closeSync();
      writable.closeSync();
      fs.rmSync(copy, { force: true });
    }
  }

  it('record what computed them', async () => {
    const rows = await queryRows(db, 'select value from snapshot_info where key = $key', {
      key: MODEL_SUMS_INFO_KEY,
    });
    expect(rows.map((r) => r.value)).toEqual([MODEL_SUMS_VERSION]);
    expect(MODEL_SUMS_VERSION).toMatch(/^[0-9a-f]{16}$/);
  });

  it('are not read from a snapshot whose sums another version computed', async () => {
    // Same tables and list lengths, other feature formulas: the sums would be fitted as if they
    // were today's features.
    expect(
      await hasSumsAfter(
        `update snapshot_info set value = 'another' where key = '${MODEL_SUMS_INFO_KEY}'`,
      ),
    ).toBe(false);
  });

  it('are not read from a snapshot written before their version was recorded', async () => {
    expect(
      await hasSumsAfter(`delete from snapshot_info where key = '${MODEL_SUMS_INFO_KEY}'`),
    ).toBe(false);
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
      const stats = await regionMonthStats(db, key, true);
      expectSameStats(stats, await regionMonthStats(db, key, false));
      const fit = someFit(stats);
      const before = stats[Math.floor(stats.length * 0.7)]?.month ?? 0;
      const residuals = await postcodeResiduals(db, key, true, fit, before);
      expectSameResiduals(residuals, await postcodeResiduals(db, key, false, fit, before));
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
    const key: SumsKey = {
      countryCode: String(busiest.country_code),
      deal: 'sale',
      postcode: { level6: String(busiest.region), level8: null },
    };
    const stats = await regionMonthStats(db, key, true);
    expect(stats.length).toBeGreaterThan(12);
    expect(stats.reduce((s, m) => s + m.n, 0)).toBe(busiest.n);
    expectClose(
      stats.reduce((s, m) => s + m.sumY, 0),
      Number(busiest.sy),
      'Σ ln(price per m²)',
    );
  });

  it('sum residuals per postcode as a plain computation over the postcode months does', async () => {
    const [busiest] = await queryRows(
      db,
      `select country_code, division_level6 as region from offers
        where deal_type = 'rent' and division_level6 is not null group by all
        order by count(*) desc limit 1`,
    );
    if (!busiest) throw new Error('no rent offers');
    const key: SumsKey = {
      countryCode: String(busiest.country_code),
      deal: 'rent',
      postcode: { level6: String(busiest.region), level8: null },
    };
    const stats = await regionMonthStats(db, key, true);
    const fit = someFit(stats);
    const before = stats[Math.floor(stats.length * 0.6)]?.month ?? 0;
    const rows = await queryRows(
      db,
      `select * from ${POSTCODE_MONTHS_TABLE} where country_code = $cc and deal_type = 'rent'
          and region_kind = $kind and region = $region`,
      { cc: key.countryCode, kind: regionOf(key.postcode).kind, region: regionOf(key.postcode).id },
    );
    // Reference: per postcode, Σ over the months before \`before\` that have an effect of
    // (Σy − n·effect − β·Σx).
    const effect = new Map(fit.months.map((m) => [m.month, m.effect]));
    const expected = new Map<string, { residual: number; n: number }>();
    for (const r of rows) {
      // n, Σy, Σx…, as the table packs them.
      const [n = 0, sy = 0, ...sx] = (r.sums as unknown as number[]).map(Number);
      const e = effect.get(Number(r.month));
      if (e === undefined || Number(r.month) >= before) continue;
      const explained = fit.beta.reduce((s, b, i) => s + b * (sx[i] ?? NaN), 0);
      const sum = expected.get(String(r.postcode)) ?? { residual: 0, n: 0 };
      sum.residual += sy - n * e - explained;
      sum.n += n;
      expected.set(String(r.postcode), sum);
    }
    const actual = await postcodeResiduals(db, key, true, fit, before);
    expect(actual.length).toBeGreaterThan(3);
    expectSameResiduals(
      actual,
      [...expected]
        .map(([postcode, s]) => ({ postcode, ...s }))
        .sort((a, b) => (a.postcode < b.postcode ? -1 : 1)),
    );
  });
});
