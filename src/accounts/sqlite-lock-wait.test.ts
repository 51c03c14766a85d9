import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../../test/helpers/backends.js';
import { LockWaitingSqliteDialect } from './sqlite-lock-wait.js';

/** A database file, the service's handle on it, and another process's (a second connection). */
function opened(waitMs: number) {
  const file = path.join(tempDir(), 'accounts.sqlite');
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 0');
  const db = new Kysely<{ t: { x: number } }>({
    dialect: new LockWaitingSqliteDialect({ database }, waitMs, () => database.inTransaction),
  });
  onTestFinished(() => db.destroy());
  database.exec('create table t (x integer)');
  const other = new SQLite(file);
  other.pragma('busy_timeout = 0');
  onTestFinished(() => {
    if (other.inTransaction) other.exec('rollback');
    other.close();
  });
  return { db, other };
}

/** Counts the timer turns the event loop takes until `work` settles. */
async function turnsWhile(work: Promise<unknown>): Promise<number> {
  let turns = 0;
  const ticking = setInterval(() => turns++, 1);
  try {
    await work.catch(() => undefined);
  } finally {
    clearInterval(ticking);
  }
  return turns;
}

describe('waiting for another process’s SQLite write lock', () => {
  it('lets the process go on while a statement waits, and runs it once the lock is free', async () => {
    const { db, other } = opened(60_000);
    other.exec('begin immediate');
    const insert = db.insertInto('t').values({ x: 1 }).execute();
    // The holder lives in this very thread: had the wait held the thread, it could never let go.
    setTimeout(() => other.exec('commit'), 50);
    expect(await turnsWhile(insert)).toBeGreaterThan(0);
    await insert;

    other.exec('begin immediate');
    const inTransaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ x: 2 }).execute();
    });
    setTimeout(() => other.exec('commit'), 50);
    await inTransaction;
    expect(await db.selectFrom('t').select('x').orderBy('x').execute()).toEqual([
      { x: 1 },
      { x: 2 },
    ]);
  });

  it('gives up after its wait with SQLite’s own refusal, having changed nothing', async () => {
    const { db, other } = opened(100);
    other.exec('begin immediate');
    const insert = db.insertInto('t').values({ x: 1 }).execute();
    expect(await turnsWhile(insert)).toBeGreaterThan(0);
    await expect(insert).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    other.exec('commit');
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([]);
  });

  it('takes the write lock as a transaction starts, so one that reads first is not refused at its write', async () => {
    const { db, other } = opened(60_000);
    await db.transaction().execute(async (trx) => {
      await trx.selectFrom('t').selectAll().execute();
      // Another process cannot write between this transaction's read and its write…
      expect(() => other.exec('insert into t values (7)')).toThrow(
        expect.objectContaining({ code: 'SQLITE_BUSY' }) as Error,
      );
      await trx.insertInto('t').values({ x: 1 }).execute();
    });
    // …and once it has ended, can.
    other.exec('insert into t values (7)');
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows).toEqual([
      { n: 2 },
    ]);
  });
});
