import path from 'node:path';
import { expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { tempDir } from '../../../test/helpers/backends.js';
import { openDuck } from '../duck.js';
import { firstOfferDate } from './offer-dates.js';

async function withDatabase<T>(
  file: string,
  readOnly: boolean,
  work: (db: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const instance = await openDuck(file, { readOnly });
  const db = await instance.connect();
  try {
    return await work(db);
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

const addOffer = (file: string, country: string, day: string) =>
  withDatabase(file, false, (db) =>
    db.run(`create table if not exists offers (country_code varchar, start_date date);
      insert into offers values ('${country}', date '${day}')`),
  );

it('is kept per read-only snapshot file and country; a writable database is asked each time', async () => {
  const dir = tempDir();
  const a = path.join(dir, 'snapshot-a.duckdb');
  const b = path.join(dir, 'snapshot-b.duckdb');
  await addOffer(a, 'DE', '2024-03-01');
  await addOffer(a, 'AT', '2023-07-15');
  await addOffer(b, 'DE', '2022-01-31');

  await withDatabase(a, false, async (db) => {
    expect(await firstOfferDate(db, 'DE')).toBe('2024-03-01');
    await db.run("insert into offers values ('DE', date '2024-02-01')");
    expect(await firstOfferDate(db, 'DE')).toBe('2024-02-01');
  });
  await withDatabase(a, true, async (db) => {
    expect(await firstOfferDate(db, 'DE')).toBe('2024-02-01');
    expect(await firstOfferDate(db, 'AT')).toBe('2023-07-15');
    expect(await firstOfferDate(db, 'FR')).toBeUndefined();
  });
  await withDatabase(b, true, async (db) => {
    expect(await firstOfferDate(db, 'DE')).toBe('2022-01-31');
  });
  // A published snapshot never changes; were its file written again, the kept date stays.
  await addOffer(a, 'DE', '2020-01-01');
  await withDatabase(a, true, async (db) => {
    expect(await firstOfferDate(db, 'DE')).toBe('2024-02-01');
  });
});
