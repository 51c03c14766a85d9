import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotView } from '../market/market-store.js';
import { Pacer } from './pacer.js';
import { QueryDeadlineExceeded, withQueryDeadline } from './query-deadline.js';

// A query that would run for hours: only the interruption can end it.
const ENDLESS = 'select count(*) from range(1000000000000) a';

describe('market queries with a deadline', () => {
  let instance: DuckDBInstance;
  let db: DuckDBConnection;
  let other: DuckDBConnection;
  let view: SnapshotView;

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    db = await instance.connect();
    other = await instance.connect();
    view = {
      file: ':memory:',
      hasDivision: () => true,
      alongside: (work) => work(other),
      divisionSlice: () => Promise.resolve(undefined),
    };
  });
  afterAll(() => {
    db.closeSync();
    other.closeSync();
    instance.closeSync();
  });

  it('interrupts the query, and the connection answers the next one', async () => {
    await expect(
      withQueryDeadline(db, view, 50, (connection) => connection.run(ENDLESS)),
    ).rejects.toBeInstanceOf(QueryDeadlineExceeded);
    const next = await db.runAndReadAll('select 42 as answer');
    expect(next.getRowObjectsJS()).toEqual([{ answer: 42 }]);
  });

  it('interrupts the connections taken alongside too', async () => {
    await expect(
      withQueryDeadline(db, view, 50, (_connection, guarded) =>
        guarded.alongside((more) => more.run(ENDLESS)),
      ),
    ).rejects.toBeInstanceOf(QueryDeadlineExceeded);
    expect((await other.runAndReadAll('select 1 as one')).getRowObjectsJS()).toEqual([{ one: 1 }]);
  });

  it('stops work computed in JavaScript at its next pause once the deadline passes', async () => {
    let pauses = 0;
    // Work that never ends by itself: it pauses forever, as statistics in memory pause.
    const endless = async (signal: AbortSignal | undefined): Promise<never> => {
      const pacer = new Pacer(0, signal);
      for (;;) {
        await pacer.pause();
        pauses++;
      }
    };
    await expect(
      withQueryDeadline(db, view, 50, (_connection, guarded) => endless(guarded.signal)),
    ).rejects.toBeInstanceOf(QueryDeadlineExceeded);
    expect(pauses).toBeGreaterThan(0);
  });

  it('leaves work within its deadline alone, errors included', async () => {
    expect(await withQueryDeadline(db, view, 60_000, () => Promise.resolve('done'))).toBe('done');
    await expect(
      withQueryDeadline(db, view, 60_000, (connection) => connection.run('select nope')),
    ).rejects.not.toBeInstanceOf(QueryDeadlineExceeded);
  });
});
