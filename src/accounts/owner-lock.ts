import type { Kysely } from 'kysely';
import type { AccountTables } from './tables.js';

/**
 * Serializes writes that count before they insert (per-owner quotas, reorders) until the
 * transaction ends. A no-op update of the owner's row takes a lock both backends hold to the
 * end of the transaction (PostgreSQL's row lock, SQLite's write lock), so concurrent creations
 * for one owner run one after the other and a limit holds exactly.
 */
export async function lockOwnerRow(
  trx: Kysely<AccountTables>,
  owner: { table: 'organizations' | 'users'; id: string },
): Promise<void> {
  await trx
    .updateTable(owner.table)
    .set((eb) => ({ created_at: eb.ref('created_at') }))
    .where('id', '=', owner.id)
    .execute();
}
