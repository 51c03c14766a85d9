import type { Kysely } from 'kysely';
import { lockOwnerRow } from '../../accounts/owner-lock.js';
import type { AccountTables, CoverSide, CoversTable } from '../../accounts/tables.js';
import type { Viewer } from '../../http/caller.js';
import type { Selectable } from 'kysely';

type Db = Kysely<AccountTables>;
export type CoverRow = Selectable<CoversTable>;

/** One owner's covers of one side: an organization's (`userId` null) or one user's. */
export interface CoverKind {
  organizationId: string;
  userId: string | null;
  side: CoverSide;
}

/** The covers of one kind in their order (without their bytes). */
export function selectCovers(db: Db, kind: CoverKind): Promise<CoverRow[]> {
  let query = db
    .selectFrom('covers')
    .selectAll()
    .where('organization_id', '=', kind.organizationId)
    .where('side', '=', kind.side);
  query =
    kind.userId === null
      ? query.where('user_id', 'is', null)
      : query.where('user_id', '=', kind.userId);
  return query.orderBy('position').orderBy('created_at').orderBy('id').execute();
}

/**
 * Serializes changes to one owner's covers until the transaction ends, so that two uploads cannot
 * both pass the per-kind cap and an upload cannot interleave with a reorder.
 */
export async function lockOwner(trx: Db, kind: CoverKind): Promise<void> {
  await lockOwnerRow(
    trx,
    kind.userId === null
      ? { table: 'organizations', id: kind.organizationId }
      : { table: 'users', id: kind.userId },
  );
}

export async function insertCover(trx: Db, row: CoverRow, content: Uint8Array): Promise<void> {
  await trx.insertInto('covers').values(row).execute();
  await trx.insertInto('cover_files').values({ cover_id: row.id, content }).execute();
}

/** Deletes covers (their bytes go with them: `cover_files` cascades). */
export async function deleteCovers(trx: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx.deleteFrom('covers').where('id', 'in', ids).execute();
}

export async function setPositions(trx: Db, ids: string[]): Promise<void> {
  for (const [position, id] of ids.entries()) {
    await trx.updateTable('covers').set({ position }).where('id', '=', id).execute();
  }
}

export interface CoverFile {
  title: string;
  content: Uint8Array;
}

/**
 * A cover's bytes, if `viewer` may see it (members see their organization's covers and their
 * own); anyone else's answer is the same as a missing one.
 */
export function findCoverFile(db: Db, viewer: Viewer, id: string): Promise<CoverFile | undefined> {
  return db
    .selectFrom('covers')
    .innerJoin('cover_files', 'cover_files.cover_id', 'covers.id')
    .select(['covers.title', 'cover_files.content'])
    .where('covers.id', '=', id)
    .where('covers.organization_id', '=', viewer.organizationId)
    .where((eb) =>
      eb.or([eb('covers.user_id', 'is', null), eb('covers.user_id', '=', viewer.userId)]),
    )
    .executeTakeFirst();
}
