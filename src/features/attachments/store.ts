import type { Kysely } from 'kysely';
import type { AccountTables, AttachmentRow } from '../../accounts/tables.js';
import type { Viewer } from '../../http/caller.js';

type Db = Kysely<AccountTables>;

// Storage of dossier attachments. Every query is scoped by the viewer's organization in SQL, so
// another organization's attachment looks missing.

/** A dossier's attachments, oldest first (without their bytes). */
export function selectAttachments(
  db: Db,
  viewer: Viewer,
  dossierId: string,
): Promise<AttachmentRow[]> {
  return db
    .selectFrom('attachments')
    .selectAll()
    .where('dossier_id', '=', dossierId)
    .where('organization_id', '=', viewer.organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Locks the dossier's row until the transaction ends, so that concurrent uploads cannot both
 * pass the per-dossier cap; false when the dossier is gone (or not the viewer's organization's).
 */
export async function lockDossier(trx: Db, viewer: Viewer, dossierId: string): Promise<boolean> {
  const result = await trx
    .updateTable('dossiers')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', dossierId)
    .where('organization_id', '=', viewer.organizationId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertAttachment(
  trx: Db,
  row: AttachmentRow,
  content: Uint8Array,
): Promise<void> {
  await trx.insertInto('attachments').values(row).execute();
  await trx.insertInto('attachment_files').values({ attachment_id: row.id, content }).execute();
}

export interface AttachmentContent {
  row: AttachmentRow;
  content: Uint8Array;
}

/** A dossier's attachments with their bytes, as far as the viewer may see them. */
function withContent(db: Db, viewer: Viewer, dossierId: string) {
  return db
    .selectFrom('attachments')
    .innerJoin('attachment_files', 'attachment_files.attachment_id', 'attachments.id')
    .selectAll('attachments')
    .select('attachment_files.content')
    .where('attachments.dossier_id', '=', dossierId)
    .where('attachments.organization_id', '=', viewer.organizationId);
}

/** One attachment with its bytes, if the viewer may see it. */
export async function findAttachmentFile(
  db: Db,
  viewer: Viewer,
  dossierId: string,
  id: string,
): Promise<AttachmentContent | undefined> {
  const found = await withContent(db, viewer, dossierId)
    .where('attachments.id', '=', id)
    .executeTakeFirst();
  if (!found) return undefined;
  const { content, ...row } = found;
  return { row, content };
}

/** The bytes of all a dossier's attachments of some types, oldest first (for reports). */
export async function selectAttachmentFiles(
  db: Db,
  viewer: Viewer,
  dossierId: string,
): Promise<AttachmentContent[]> {
  const rows = await withContent(db, viewer, dossierId)
    .orderBy('attachments.created_at')
    .orderBy('attachments.id')
    .execute();
  return rows.map(({ content, ...row }) => ({ row, content }));
}

/** Deletes one attachment (its bytes cascade); false when it is not there for the viewer. */
export async function deleteAttachment(
  db: Db,
  viewer: Viewer,
  dossierId: string,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('attachments')
    .where('id', '=', id)
    .where('dossier_id', '=', dossierId)
    .where('organization_id', '=', viewer.organizationId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
