import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuck } from '../duck.js';
import { CREATE_TABLES } from '../schema.js';
import { SLICE_BYTES_PER_OFFER, type DivisionKey } from './division-slice.js';
import { SliceCache } from './slice-cache.js';

const division = (id: string): DivisionKey => ({ countryCode: 'AT', level: 8, id });

describe('SliceCache', () => {
  let instance: DuckDBInstance;
  let db: DuckDBConnection;
  // Counts the loads: each one runs through `read`.
  let reads = 0;
  const read = <T>(work: (c: DuckDBConnection) => Promise<T>): Promise<T> => {
    reads++;
    return work(db);
  };

  beforeAll(async () => {
    instance = await openDuck(':memory:');
    db = await instance.connect();
    await db.run(CREATE_TABLES);
    // Divisions 'a', 'b', 'c', 'd' with 10, 20, 40 and 20 offers.
    for (const [id, count] of [
      ['a', 10],
      ['b', 20],
      ['c', 40],
      ['d', 20],
    ] as const) {
      await db.run(
        `insert into offers (country_code, id, deal_type, property_type, start_date, is_active,
           days_on_market, sale_price, living_area, is_new, division_level8)
         select 'AT', '${id}' || i, 'sale', 'apartment', date '2024-01-01' + i::integer, true,
           i, 1000 * i, case when i % 2 = 0 then 50 end, case when i % 3 = 0 then null else i % 3 = 1 end, '${id}'
         from range(${String(count)}) t(i)`,
      );
    }
  });
  afterAll(() => {
    db.closeSync();
    instance.closeSync();
  });

  it('loads a slice once, with the columns as they are', async () => {
    const cache = new SliceCache(100 * SLICE_BYTES_PER_OFFER);
    reads = 0;
    const [first, second] = await Promise.all([
      cache.slice(division('a'), read),
      cache.slice(division('a'), read),
    ]);
    expect(reads).toBe(1);
    expect(second).toBe(first);
    expect(first?.length).toBe(10);
    const prices = [...(first?.numbers.sale_price ?? [])].sort((x, y) => x - y);
    expect(prices).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000]);
    // NULL living areas are NaN; NULL flags -1.
    expect(first?.numbers.living_area.filter(Number.isNaN).length).toBe(5);
    expect([...(first?.flags.is_new ?? [])].filter((f) => f === -1).length).toBe(4);
    expect(first?.month.every((m) => m === 2024 * 12)).toBe(true); // all in January 2024
    expect(cache.bytes).toBe(10 * SLICE_BYTES_PER_OFFER);
  });

  it('keeps within its budget, dropping the least recently used; a division too large stays in SQL', async () => {
    const cache = new SliceCache(35 * SLICE_BYTES_PER_OFFER);
    await cache.slice(division('a'), read);
    await cache.slice(division('b'), read);
    expect(await cache.slice(division('c'), read)).toBeUndefined();
    reads = 0;
    expect(await cache.slice(division('c'), read)).toBeUndefined();
    expect(reads).toBe(0); // known to be too large: not counted again
    await cache.slice(division('a'), read); // a is now more recent than b
    await cache.slice(division('d'), read); // 10 + 20 + 20 > 35: b goes
    expect(cache.bytes).toBe(30 * SLICE_BYTES_PER_OFFER);
    expect(cache.size).toBe(2);
    reads = 0;
    await cache.slice(division('a'), read);
    await cache.slice(division('d'), read);
    expect(reads).toBe(0);
    await cache.slice(division('b'), read);
    expect(reads).toBe(1);
    expect(cache.busiest(2)).toEqual([division('a'), division('b')]);
  });

  it('with no budget never loads', async () => {
    const cache = new SliceCache(0);
    reads = 0;
    expect(await cache.slice(division('a'), read)).toBeUndefined();
    expect(reads).toBe(0);
  });
});
