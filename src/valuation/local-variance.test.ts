import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/backends.js';
import { openDuck, queryRows } from '../market/duck.js';
import { importFile } from '../market/import/run-import.js';
import { currentSnapshot, marketPaths } from '../market/snapshots.js';
import {
  CELL_METERS,
  LOCAL_VARIANCE_TABLE,
  localSdOf,
  localVariation,
  localVariationOf,
  momentsOfRow,
  localVariance,
  MAX_LOCAL_SD,
  MIN_LOCAL_SD,
  EVERY_COUNTRY,
  POOLED,
  type CellMoments,
} from './local-variance.js';
import { snapshotCache } from './snapshot-cache.js';

/** A small deterministic generator (not the project's), so the data owes nothing to the code. */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

/**
 * The one-way random-effects estimate written out from the cells' values, independently of the
 * moments the module sums: τ² = (MSB − MSW) / n₀ with n₀ = (N − Σnᵢ²/N) / (C − 1).
 */
function anova(cells: number[][]): number {
  const all = cells.flat();
  const n = all.length;
  const mean = all.reduce((s, v) => s + v, 0) / n;
  let ssb = 0;
  let ssw = 0;
  for (const cell of cells) {
    const m = cell.reduce((s, v) => s + v, 0) / cell.length;
    ssb += cell.length * (m - mean) ** 2;
    for (const v of cell) ssw += (v - m) ** 2;
  }
  const c = cells.length;
  const msb = ssb / (c - 1);
  const msw = ssw / (n - c);
  const n0 = (n - cells.reduce((s, cell) => s + cell.length ** 2, 0) / n) / (c - 1);
  return Math.max(0, (msb - msw) / n0);
}

function momentsOf(cells: number[][]): CellMoments {
  const means = cells.map((cell) => cell.reduce((s, v) => s + v, 0) / cell.length);
  return {
    offers: cells.reduce((s, cell) => s + cell.length, 0),
    cells: cells.length,
    within: cells.reduce(
      (s, cell, i) => s + cell.reduce((t, v) => t + (v - (means[i] ?? 0)) ** 2, 0),
      0,
    ),
    sumMean: cells.reduce((s, cell, i) => s + cell.length * (means[i] ?? 0), 0),
    sumMean2: cells.reduce((s, cell, i) => s + cell.length * (means[i] ?? 0) ** 2, 0),
    sumN2: cells.reduce((s, cell) => s + cell.length ** 2, 0),
    saleSpread: null,
    spreadDf: null,
  };
}

/** Cells of unequal sizes: a true neighbourhood effect of SD `tau` plus noise of SD 0.2. */
function simulatedCells(tau: number, seed: number): number[][] {
  const random = lcg(seed);
  const normal = () => {
    const u = Math.max(random(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  return Array.from({ length: 400 }, (_, i) => {
    const effect = tau * normal();
    return Array.from({ length: 2 + (i % 9) }, () => effect + 0.2 * normal());
  });
}

describe('localVariance', () => {
  it('equals the one-way ANOVA estimate computed from the cells themselves', () => {
    for (const [tau, seed] of [
      [0, 1],
      [0.05, 2],
      [0.1, 3],
    ] as const) {
      const cells = simulatedCells(tau, seed);
      expect(localVariance(momentsOf(cells))).toBeCloseTo(anova(cells), 12);
    }
  });

  it('recovers the neighbourhood SD of simulated markets, and none where there is none', () => {
    expect(Math.sqrt(localVariance(momentsOf(simulatedCells(0.1, 7))) ?? 0)).toBeGreaterThan(0.08);
    expect(Math.sqrt(localVariance(momentsOf(simulatedCells(0.1, 7))) ?? 0)).toBeLessThan(0.12);
    expect(Math.sqrt(localVariance(momentsOf(simulatedCells(0, 8))) ?? 1)).toBeLessThan(0.03);
  });

  it('gives no estimate with too little evidence, and τ stays within its bounds', () => {
    expect(localVariance(momentsOf([[0.1, 0.2], [0.3]]))).toBeUndefined();
    expect(localSdOf(undefined)).toBe(MIN_LOCAL_SD);
    expect(localSdOf(momentsOf(simulatedCells(0, 8)))).toBe(MIN_LOCAL_SD);
    expect(localSdOf(momentsOf(simulatedCells(0.5, 9)))).toBe(MAX_LOCAL_SD);
    const mid = localSdOf(momentsOf(simulatedCells(0.1, 7)));
    expect(mid).toBeGreaterThan(MIN_LOCAL_SD);
    expect(mid).toBeLessThan(MAX_LOCAL_SD);
  });
});

describe('localVariationOf', () => {
  const moments = (offers: number, cells: number, saleSpread: number | null): CellMoments => ({
    offers,
    cells,
    within: 0,
    sumMean: 0,
    sumMean2: 0,
    sumN2: offers,
    saleSpread,
    spreadDf: null,
  });
  const pooled = { ...moments(500, 100, 0.25), spreadDf: 400 };

  it("takes the region's own spread where 30 within-cell degrees of freedom measure it", () => {
    expect(localVariationOf({ ...moments(0, 0, 0.12), spreadDf: 30 }, pooled).saleSpread).toBe(
      0.12,
    );
    // A snapshot written before the spread's own degrees of freedom were stored: τ's cells.
    expect(localVariationOf(moments(60, 30, 0.12), pooled).saleSpread).toBe(0.12);
  });

  it("takes the country's pooled spread below that, and none where neither measures one", () => {
    expect(localVariationOf({ ...moments(0, 0, 0.12), spreadDf: 29 }, pooled).saleSpread).toBe(
      0.25,
    );
    expect(localVariationOf(undefined, pooled).saleSpread).toBe(0.25);
    expect(localVariationOf(moments(59, 30, 0.12), { ...pooled, spreadDf: 29 }).saleSpread).toBe(
      undefined,
    );
    expect(localVariationOf(undefined, pooled).localSd).toBe(MIN_LOCAL_SD);
  });

  it("gives every country's spread apart, where 30 degrees of freedom measure it", () => {
    const every = { ...moments(0, 0, 0.18), spreadDf: 30 };
    const local = localVariationOf(undefined, undefined, every);
    expect([local.saleSpread, local.everySaleSpread]).toEqual([undefined, 0.18]);
    expect(localVariationOf(undefined, pooled, every).saleSpread).toBe(0.25);
    expect(
      localVariationOf(undefined, undefined, { ...every, spreadDf: 29 }).everySaleSpread,
    ).toBeUndefined();
  });
});

describe('local variance stored with the snapshot', () => {
  it('matches the estimate from the offers as placed in cells, stored and computed alike, and lends its spread to a thin region', async () => {
    const dir = tempDir();
    try {
      // Sales in 30 blocks of one Paris postcode, one size class, one year: each block has its
      // own price level (SD 0.1), each sale its own noise (SD 0.15), plus one non-market sale
      // that the clipping must hold at 0.7 from its group's mean.
      const random = lcg(42);
      const cellDegrees = CELL_METERS / 111_320;
      const lat0 = 48.84;
      const cos0 = Math.cos((lat0 * Math.PI) / 180);
      const values: number[][] = [];
      const lines = [
        'id,countryCode,dealType,propertyType,startDate,salePrice,livingArea,latitude,longitude,postalCode',
      ];
      for (let c = 0; c < 30; c++) {
        const effect = 0.1 * (random() * 2 - 1) * Math.sqrt(3);
        const cellValues: number[] = [];
        // Blocks 5 cells apart in both directions, points near the block's centre.
        const cy = Math.floor(lat0 / cellDegrees) + 5 * (c % 6);
        const cx = Math.floor((2.34 * cos0) / cellDegrees) + 5 * Math.floor(c / 6);
        for (let k = 0; k < 3 + (c % 4); k++) {
          const y = Math.log(10_000) + effect + 0.15 * (random() * 2 - 1) * Math.sqrt(3);
          const lat = (cy + 0.4 + 0.2 * random()) * cellDegrees;
          const lon = ((cx + 0.4 + 0.2 * random()) * cellDegrees) / Math.cos((lat * Math.PI) / 180);
          const price = Math.round(Math.exp(y) * 50);
          cellValues.push(Math.log(price / 50));
          lines.push(
            `c${String(c)}-${String(k)},FR,sale,apartment,2023-0${String(1 + (k % 9))}-15,${String(price)},50,${lat.toFixed(7)},${lon.toFixed(7)},75005`,
          );
        }
        values.push(cellValues);
      }
      // The non-market sale, in the first block: a third of the price.
      const first = values[0] ?? [];
      const odd = Math.round((Math.exp(first[0] ?? 0) * 50) / 3);
      first.push(Math.log(odd / 50));
      const [, , , , , , , lat, lon] = (lines[1] ?? '').split(',');
      lines.push(
        `odd,FR,sale,apartment,2023-05-15,${String(odd)},50,${lat ?? ''},${lon ?? ''},75005`,
      );
      // The block's first flat advertised three times more (same point, size and price): one
      // listing, so the reference below leaves the copies out. The odd sale at that point, at
      // another price, is another flat.
      const firstSale = (lines[1] ?? '').split(',');
      for (const month of ['10', '11', '12']) {
        firstSale[0] = `copy-${month}`;
        firstSale[4] = `2023-${month}-01`;
        lines.push(firstSale.join(','));
      }
      // Three sales in Hendaye (another département), each at its own point: too few for the
      // region to measure anything, so it borrows the single-offer spread of its country.
      for (const [k, lon] of [-1.77, -1.76, -1.75].entries())
        lines.push(
          `h${String(k)},FR,sale,apartment,2023-06-15,250000,50,43.358,${String(lon)},64700`,
        );
      const csv = path.join(dir, 'offers.csv');
      fs.writeFileSync(csv, `${lines.join('\n')}\n`);
      const dataDir = path.join(dir, 'data');
      await importFile(dataDir, 'offers', csv, { today: '2024-01-01' });

      // The reference: deviations from the group mean, clipped at ±0.7, then the ANOVA.
      const all = values.flat();
      const mean = all.reduce((s, v) => s + v, 0) / all.length;
      const clipped = values.map((cell) =>
        cell.map((v) => Math.max(-0.7, Math.min(0.7, v - mean))),
      );
      expect(clipped.flat().some((v) => v === -0.7)).toBe(true);
      const expected = anova(clipped);
      // The single-offer spread: deviations from the cell's mean, scaled by √(n / (n − 1)),
      // 1.4826 × their median absolute value (the middle two averaged).
      const deviations = clipped
        .flatMap((cell) => {
          const m = cell.reduce((a, v) => a + v, 0) / cell.length;
          return cell.map((v) => Math.abs(v - m) * Math.sqrt(cell.length / (cell.length - 1)));
        })
        .sort((a, b) => a - b);
      const half = deviations.length >> 1;
      const middle =
        deviations.length % 2
          ? (deviations[half] ?? NaN)
          : ((deviations[half - 1] ?? NaN) + (deviations[half] ?? NaN)) / 2;
      const expectedSpread = 1.4826 * middle;
      const expectedSd = Math.min(MAX_LOCAL_SD, Math.max(MIN_LOCAL_SD, Math.sqrt(expected)));

      /** τ and the single-offer spread the model reads for a postcode's region. */
      const variation = async (db: DuckDBConnection, code: string) => {
        const cache = await snapshotCache(db);
        const postcode = cache.places.get('FR')?.get(code);
        if (!postcode) throw new Error('no postcode');
        return localVariation(db, cache, 'FR', postcode, 'sale');
      };
      const expectVariation = async (db: DuckDBConnection) => {
        const local = await variation(db, '75005');
        expect(local.localSd).toBeCloseTo(expectedSd, 9);
        expect(local.saleSpread).toBeCloseTo(expectedSpread, 9);
      };

      const file = currentSnapshot(marketPaths(dataDir));
      if (!file) throw new Error('no snapshot');
      const instance = await openDuck(file, { readOnly: true });
      const db = await instance.connect();
      try {
        const rows = await queryRows(
          db,
          `select * from ${LOCAL_VARIANCE_TABLE} order by region_kind = '${POOLED}', country_code`,
        );
        // Paris's region, every country's pooled row and the country's; Hendaye's sales have no
        // group of 5 to be measured against, so none holds them.
        expect(rows.map((r) => [r.country_code, r.region_kind])).toEqual([
          ['FR', 'level6'],
          [EVERY_COUNTRY, POOLED],
          ['FR', POOLED],
        ]);
        const stored = momentsOfRow(rows[0] ?? {});
        expect(stored.offers).toBe(all.length);
        expect(stored.cells).toBe(30);
        expect(localVariance(stored)).toBeCloseTo(expected, 9);
        expect(stored.saleSpread).toBeCloseTo(expectedSpread, 9);
        // The pooled rows sum the same cells, in whatever order DuckDB's threads take them:
        // equal to the last bits of a double.
        for (const pooledRow of [rows[1], rows[2]]) {
          const pooled = momentsOfRow(pooledRow ?? {});
          for (const key of Object.keys(stored) as (keyof CellMoments)[]) {
            expect(pooled[key], key).toBeCloseTo(stored[key] ?? NaN, 9);
          }
        }
        await expectVariation(db);
        const thin = await variation(db, '64700');
        expect(thin.localSd).toBe(MIN_LOCAL_SD);
        expect(thin.saleSpread).toBeCloseTo(expectedSpread, 9);
      } finally {
        db.closeSync();
        instance.closeSync();
      }

      // A snapshot written before the table existed computes the same from the offers.
      const copy = path.join(dir, 'old.duckdb');
      fs.copyFileSync(file, copy);
      const writable = await openDuck(copy);
      const w = await writable.connect();
      await w.run(`drop table ${LOCAL_VARIANCE_TABLE}`);
      w.closeSync();
      writable.closeSync();
      const old = await openDuck(copy, { readOnly: true });
      const db2 = await old.connect();
      try {
        await expectVariation(db2);
        // Without the table there is no pooled row: the thin region has no spread.
        expect((await variation(db2, '64700')).saleSpread).toBeUndefined();
      } finally {
        db2.closeSync();
        old.closeSync();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
