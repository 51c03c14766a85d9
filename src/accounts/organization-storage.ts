import { mib } from '../bytes-text.js';
import { AppError } from '../http/problem.js';
import type { AccountDb } from './database.js';
import { lockOwnerRow } from './owner-lock.js';

/** Bytes an organization stores in files: its attachments with their print versions, and the
 * covers of the organization and of its users. */
export async function storedBytesOf(db: AccountDb, organizationId: string): Promise<number> {
  const [attachments, covers] = await Promise.all([
    db
      .selectFrom('attachments')
      .select((eb) =>
        eb.fn.sum<number | string | null>(eb('size', '+', eb.ref('print_size'))).as('n'),
      )
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('covers')
      .select((eb) => eb.fn.sum<number | string | null>('size').as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow(),
  ]);
  return Number(attachments.n ?? 0) + Number(covers.n ?? 0);
}

/**
 * Refuses (`409`) storing `adding` more bytes for the organization where its files would then
 * take more than `budget`. Called in the transaction that stores them, which it makes hold the
 * organization's row (`lockOwnerRow`) to its end: concurrent uploads of one organization are
 * counted one after the other, so the budget holds exactly.
 */
export async function refuseBeyondStorage(
  trx: AccountDb,
  organizationId: string,
  adding: number,
  budget: number,
): Promise<void> {
  await lockOwnerRow(trx, { table: 'organizations', id: organizationId });
  const stored = await storedBytesOf(trx, organizationId);
  if (stored + adding <= budget) return;
  throw new AppError(
    'conflict',
    `The organization's files would take ${String(stored + adding)} bytes with this one ` +
      `(${mib(stored + adding)} MiB); it may keep ${String(budget)} bytes (${mib(budget)} MiB) ` +
      `of attachments and covers together and keeps ${String(stored)}; delete some first`,
  );
}
