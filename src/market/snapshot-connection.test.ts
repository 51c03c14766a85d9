import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceDataDir } from '../../test/helpers/market.js';
import { MODEL_SUMS_INFO_KEY } from '../valuation/model-sums.js';
import type { PropertyToValue } from '../valuation/types.js';
import { estimateDeal } from '../valuation/value-property.js';
import { openDuck, queryRows } from './duck.js';
import { generateDemoData } from './generate/generate.js';
import { connectSnapshot } from './snapshot-connection.js';
import { currentSnapshot, marketPaths } from './snapshots.js';

describe('a snapshot written before a column of the offers existed', () => {
  const open: { instance: DuckDBInstance; db: DuckDBConnection }[] = [];
  let current: DuckDBConnection;
  let older: DuckDBInstance;
  let properties: PropertyToValue[];

  async function openRead(file: string): Promise<DuckDBInstance> {
    const instance = await openDuck(file, { readOnly: true });
    open.push({ instance, db: await connectSnapshot(instance) });
    return instance;
  }

  beforeAll(async () => {
    const dataDir = referenceDataDir();
    await generateDemoData(dataDir, { offers: 20_000, projects: 5, seed: 12, today: '2026-11-21' });
    const file = currentSnapshot(marketPaths(dataDir));
    if (!file) throw new Error('no snapshot');
    // The same snapshot as an earlier version wrote it: no land column, sums of other formulas;
    // and the current one with sums of other formulas only. Both are valued from their offers
    // (without stored sums a region's index is not pooled with the country's).
    const copy = async (name: string, changes: string[]) => {
      const target = path.join(path.dirname(file), name);
      fs.copyFileSync(file, target);
      const writable = await openDuck(target);
      const w = await writable.connect();
      try {
        for (const change of changes) await w.run(change);
      } finally {
        w.closeSync();
        writable.closeSync();
      }
      return target;
    };
    const otherSums = `update snapshot_info set value = 'older' where key = '${MODEL_SUMS_INFO_KEY}'`;
    const olderFile = await copy('older.duckdb', [
      'alter table offers drop column land_area',
      'alter table offers_by_place drop column land_area',
      otherSums,
    ]);
    const currentFile = await copy('current.duckdb', [otherSums]);
    await openRead(currentFile);
    older = await openRead(olderFile);
    current = open[0]?.db as DuckDBConnection;
    const rows = await queryRows(
      current,
      `select * from (
         select country_code, property_type, latitude, longitude, living_area from offers
         where deal_type = 'sale' and latitude is not null
       ) using sample reservoir(30 rows) repeatable (3)`,
    );
    properties = rows.map((r) => ({
      countryCode: r.country_code as PropertyToValue['countryCode'],
      propertyType: r.property_type === 'house' ? 'house' : 'apartment',
      latitude: Number(r.latitude),
      longitude: Number(r.longitude),
      locationPrecision: 'exact',
      livingArea: Number(r.living_area),
      ...(r.property_type === 'house' ? { landArea: 600 } : {}),
    }));
  });
  afterAll(() => {
    for (const { instance, db } of open) {
      db.closeSync();
      instance.closeSync();
    }
  });

  it('is read with the column empty, and values as the current one', async () => {
    const olderDb = open[1]?.db as DuckDBConnection;
    expect(properties.length).toBe(30);
    let valued = 0;
    for (const property of properties) {
      const a = await estimateDeal(current, property, 'sale', '2026-11-01').catch(() => undefined);
      const b = await estimateDeal(olderDb, property, 'sale', '2026-11-01').catch(() => undefined);
      expect(b === undefined).toBe(a === undefined);
      if (!a || !b) continue;
      valued += 1;
      // The older snapshot's sums are computed from its offers: the same to rounding.
      expect(Math.abs(b.value / a.value - 1)).toBeLessThan(1e-9);
      expect(b.sd).toBeCloseTo(a.sd, 9);
    }
    expect(valued).toBeGreaterThan(20);
    const rows = await queryRows(
      olderDb,
      'select count(land_area)::integer as n from offers_by_place',
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('fails on a plain connection, which the view is for', async () => {
    const db = await older.connect();
    try {
      await expect(queryRows(db, 'select land_area from offers limit 1')).rejects.toThrow(
        /land_area/,
      );
    } finally {
      db.closeSync();
    }
  });
});
