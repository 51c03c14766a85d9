import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeBackends } from '../../../test/helpers/backends.js';
import { createDossier } from '../../../test/helpers/fixtures.js';
import { createWorld, type World } from '../../../test/helpers/world.js';
import { lastValuationBasis, recordValuationBasis } from './store.js';

const BASIS = { propertyHash: 'h1', snapshot: 's1' };

describeBackends('a dossier valuation’s record', (backend) => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(() => world.close());

  it('is kept per dossier, the last one replacing the one before', async () => {
    const db = world.stores.accounts.db;
    const id = await createDossier(world);
    await recordValuationBasis(db, world.memberA, id, BASIS, '2026-11-01T00:00:00.000Z');
    await recordValuationBasis(
      db,
      world.adminA,
      id,
      { propertyHash: 'h2', snapshot: 's2' },
      '2026-11-02T00:00:00.000Z',
    );
    expect(await lastValuationBasis(db, world.memberA, id)).toEqual({
      propertyHash: 'h2',
      snapshot: 's2',
    });
    // Another organization neither writes nor reads it.
    await recordValuationBasis(db, world.memberB, id, BASIS, '2026-11-03T00:00:00.000Z');
    expect(await lastValuationBasis(db, world.memberB, id)).toBeUndefined();
    expect((await lastValuationBasis(db, world.memberA, id))?.propertyHash).toBe('h2');
  });

  it('is not written, and does not fail, for a dossier deleted while it is written', async () => {
    const db = world.stores.accounts.db;
    const id = await createDossier(world);
    let deleted!: () => void;
    const isDeleted = new Promise<void>((resolve) => (deleted = resolve));
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    // The deletion, held open until the record's write is under way.
    const deletion = db.transaction().execute(async (trx) => {
      await trx.deleteFrom('dossiers').where('id', '=', id).execute();
      deleted();
      await committing;
    });
    await isDeleted;
    const write = recordValuationBasis(db, world.memberA, id, BASIS, '2026-11-01T00:00:00.000Z');
    if (backend === 'postgres') {
      // The write has reached the dossier's row and waits for the deletion's lock: the moment a
      // plain INSERT … SELECT still saw the row and then failed on the foreign key.
      for (;;) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
        if ((rows[0]?.n ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    commit();
    await deletion;
    await expect(write).resolves.toBeUndefined();
    const rows = await db
      .selectFrom('dossier_valuations')
      .select('dossier_id')
      .where('dossier_id', '=', id)
      .execute();
    expect(rows).toEqual([]);
  });
});
