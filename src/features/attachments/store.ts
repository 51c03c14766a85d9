import type { Kysely } from 'kysely';
import type { AccountTables, AttachmentRow } from '../../accounts/tables.js';
import type { Viewer } from '../../http/caller.js';
import { storedBytes, storedSlice, type StoredBytes } from '../../accounts/stored-bytes.js';

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

export async function insertAttachment(
  trx: Db,
  row: AttachmentRow,
  content: Uint8Array,
  printContent: Uint8Array | null,
): Promise<void> {
  await trx.insertInto('attachments').values(row).execute();
  await trx
    .insertInto('attachment_files')
    .values({ attachment_id: row.id, content, print_content: printContent })
    .execute();
}

export interface AttachmentContent {
  row: AttachmentRow;
  content: Uint8Array;
  /** Whether `content` is the stored print version (src/pdf/print-version.ts). */
  printed?: boolean;
}

/** The stored file of one attachment, if the viewer may see it. */
function visibleAttachmentFile(db: Db, viewer: Viewer, dossierId: string, id: string) {
  return db
    .selectFrom('attachments')
    .innerJoin('attachment_files', 'attachment_files.attachment_id', 'attachments.id')
    .where('attachments.id', '=', id)
    .where('attachments.dossier_id', '=', dossierId)
    .where('attachments.organization_id', '=', viewer.organizationId);
}

export interface AttachmentDownload {
  row: AttachmentRow;
  bytes: StoredBytes;
}

/** One attachment to download, if the viewer may see it: its row, and its bytes in chunks. */
export async function findAttachmentDownload(
  db: Db,
  viewer: Viewer,
  dossierId: string,
  id: string,
): Promise<AttachmentDownload | undefined> {
  const row = await visibleAttachmentFile(db, viewer, dossierId, id)
    .selectAll('attachments')
    .executeTakeFirst();
  if (!row) return undefined;
  const bytes = storedBytes(row.size, async (offset, length) => {
    const found = await visibleAttachmentFile(db, viewer, dossierId, id)
      .select(storedSlice('attachment_files.content', offset, length).as('chunk'))
      .executeTakeFirst();
    return found?.chunk;
  });
  return { row, bytes };
}

/**
 * The bytes of all a dossier's attachments, oldest first, as reports show them: an image's
 * print version where it has one.
 */
export async function selectAttachmentFiles(
  db: Db,
  viewer: Viewer,
  dossierId: string,
): Promise<AttachmentContent[]> {
  const rows = await db
    .selectFrom('attachments')
    .innerJoin('attachment_files', 'attachment_files.attachment_id', 'attachments.id')
    .selectAll('attachments')
    .select((eb) =>
      eb.fn
        .coalesce('attachment_files.print_content', 'attachment_files.content')
        .$castTo<Uint8Array>()
        .as('content'),
    )
    .select((eb) => eb('attachment_files.print_content', 'is not', null).as('printed'))
    .where('attachments.dossier_id', '=', dossierId)
    .where('attachments.organization_id', '=', viewer.organizationId)
    .orderBy('attachments.created_at')
    .orderBy('attachments.id')
    .execute();
  return rows.map(({ content, printed, ...row }) => ({ row, content, printed: Boolean(printed) }));
}

/**
 * Keeps the print version of a stored attachment that has none (uploaded before uploads made
 * them), so that only the first report after that pays for it.
 */
export async function storePrintVersion(
  db: Db,
  viewer: Viewer,
  attachmentId: string,
  print: Uint8Array,
): Promise<void> {
  await db
    .updateTable('attachment_files')
    .set({ print_content: print })
    .where('attachment_id', '=', attachmentId)
    .where('attachment_id', 'in', (eb) =>
      eb
        .selectFrom('attachments')
        .select('id')
        .where('organization_id', '=', viewer.organizationId),
    )
    .execute();
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
