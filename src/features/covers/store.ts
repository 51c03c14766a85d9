import type { Kysely } from 'kysely';
import { lockOwnerRow } from '../../accounts/owner-lock.js';
import type { AccountTables, CoverSide, CoversTable } from '../../accounts/tables.js';
import type { Viewer } from '../../http/caller.js';
import type { Selectable } from 'kysely';
import {
  chunksOf,
  joinedChunks,
  storedBytes,
  type StoredBytes,
} from '../../accounts/stored-bytes.js';

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
  for (const [seq, bytes] of chunksOf(content).entries()) {
    await trx.insertInto('cover_chunks').values({ cover_id: row.id, seq, bytes }).execute();
  }
}

/** Deletes covers (their bytes go with them: `cover_chunks` cascades). */
export async function deleteCovers(trx: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx.deleteFrom('covers').where('id', 'in', ids).execute();
}

/**
 * Deletes every cover of one user, both sides, holding the user's lock as an upload or a reorder
 * of either side does (`lockOwner`): what was deleted, and its bytes.
 */
export async function deleteUserCovers(
  db: Db,
  userId: string,
): Promise<{ count: number; bytes: number }> {
  return db.transaction().execute(async (trx) => {
    await lockOwnerRow(trx, { table: 'users', id: userId });
    const rows = await trx
      .selectFrom('covers')
      .select(['id', 'size'])
      .where('user_id', '=', userId)
      .execute();
    await deleteCovers(
      trx,
      rows.map((r) => r.id),
    );
    return { count: rows.length, bytes: rows.reduce((sum, r) => sum + r.size, 0) };
  });
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
 * The cover `id` if `viewer` may see it (members see their organization's covers and their
 * own); anyone else's answer is the same as a missing one.
 */
function visibleCover(db: Db, viewer: Viewer, id: string) {
  return db
    .selectFrom('covers')
    .where('covers.id', '=', id)
    .where('covers.organization_id', '=', viewer.organizationId)
    .where((eb) =>
      eb.or([eb('covers.user_id', 'is', null), eb('covers.user_id', '=', viewer.userId)]),
    );
}

/** A cover's bytes, whole (for reports, which embed it), if `viewer` may see it. */
export async function findCoverFile(
  db: Db,
  viewer: Viewer,
  id: string,
): Promise<CoverFile | undefined> {
  const rows = await visibleCover(db, viewer, id)
    .innerJoin('cover_chunks', 'cover_chunks.cover_id', 'covers.id')
    .select(['covers.title', 'cover_chunks.bytes'])
    .orderBy('cover_chunks.seq')
    .execute();
  const [first] = rows;
  if (!first) return undefined;
  return { title: first.title, content: joinedChunks(rows.map((r) => r.bytes)) };
}

/** A cover to download, if `viewer` may see it: its title, and its bytes read row by row. */
export async function findCoverDownload(
  db: Db,
  viewer: Viewer,
  id: string,
): Promise<{ title: string; bytes: StoredBytes } | undefined> {
  const found = await visibleCover(db, viewer, id)
    .select(['covers.title', 'covers.size'])
    .executeTakeFirst();
  if (!found) return undefined;
  const bytes = storedBytes(
    found.size,
    async (seq) => {
      const row = await visibleCover(db, viewer, id)
        .innerJoin('cover_chunks', 'cover_chunks.cover_id', 'covers.id')
        .where('cover_chunks.seq', '=', seq)
        .select('cover_chunks.bytes')
        .executeTakeFirst();
      return row?.bytes;
    },
    viewer.organizationId,
  );
  return { title: found.title, bytes };
}
