import { refuseBeyondStorage } from '../../accounts/organization-storage.js';
import { AppError } from '../../http/problem.js';
import { sql, type Kysely } from 'kysely';
import type { AccountTables, AttachmentRow } from '../../accounts/tables.js';
import type { Viewer } from '../../http/caller.js';
import {
  chunksOf,
  joinedChunks,
  storedBytes,
  type StoredBytes,
} from '../../accounts/stored-bytes.js';

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

/** What one of a dossier's attachments counts against the dossier's caps. */
export interface AttachmentLoad {
  /** Bytes (`countedSize`). */
  bytes: number;
  /** A PDF's copy weight (src/pdf/pdf-structure.ts); 0 for an image and a PDF not yet weighed. */
  copyWeight: number;
}

/**
 * What each of a dossier's attachments counts against the dossier's caps: the larger of the
 * file as uploaded and its print version, if it has one (`countedSize`; `length` counts a blob's
 * or bytea's bytes in both stores), and its copy weight.
 */
export async function attachmentLoads(
  db: Db,
  viewer: Viewer,
  dossierId: string,
): Promise<AttachmentLoad[]> {
  const rows = await db
    .selectFrom('attachments')
    .leftJoin('attachment_files', 'attachment_files.attachment_id', 'attachments.id')
    .select([
      'attachments.size',
      'attachments.copy_weight',
      sql<number | null>`length(${sql.ref('attachment_files.print_content')})`.as('print_size'),
    ])
    .where('attachments.dossier_id', '=', dossierId)
    .where('attachments.organization_id', '=', viewer.organizationId)
    .execute();
  return rows.map((r) => ({
    bytes: countedSize(r.size, r.print_size ?? 0),
    copyWeight: r.copy_weight ?? 0,
  }));
}

/**
 * What an attachment counts against its dossier's cap: a report holds its print version where
 * it has one, else the file, so counting the larger bounds a report's memory by the cap, and
 * the store by twice it (a 1.4 MB palette PNG had made a 13.6 MB print version, uncounted).
 */
export function countedSize(fileBytes: number, printBytes: number): number {
  return Math.max(fileBytes, printBytes);
}

export async function insertAttachment(
  trx: Db,
  row: AttachmentRow,
  content: Uint8Array,
  printContent: Uint8Array | null,
): Promise<void> {
  await trx.insertInto('attachments').values(row).execute();
  for (const [seq, bytes] of chunksOf(content).entries()) {
    await trx
      .insertInto('attachment_chunks')
      .values({ attachment_id: row.id, seq, bytes })
      .execute();
  }
  await trx
    .insertInto('attachment_files')
    .values({ attachment_id: row.id, print_content: printContent })
    .execute();
}

export interface AttachmentContent {
  row: AttachmentRow;
  content: Uint8Array;
  /** Whether `content` is the stored print version (src/pdf/print-version.ts). */
  printed?: boolean;
}

/** One attachment, if the viewer may see it. */
function visibleAttachment(db: Db, viewer: Viewer, dossierId: string, id: string) {
  return db
    .selectFrom('attachments')
    .where('attachments.id', '=', id)
    .where('attachments.dossier_id', '=', dossierId)
    .where('attachments.organization_id', '=', viewer.organizationId);
}

export interface AttachmentDownload {
  row: AttachmentRow;
  bytes: StoredBytes;
}

/** One attachment to download, if the viewer may see it: its row, and its bytes row by row. */
export async function findAttachmentDownload(
  db: Db,
  viewer: Viewer,
  dossierId: string,
  id: string,
): Promise<AttachmentDownload | undefined> {
  const row = await visibleAttachment(db, viewer, dossierId, id)
    .selectAll('attachments')
    .executeTakeFirst();
  if (!row) return undefined;
  const bytes = storedBytes(
    row.size,
    async (seq) => {
      const found = await visibleAttachment(db, viewer, dossierId, id)
        .innerJoin('attachment_chunks', 'attachment_chunks.attachment_id', 'attachments.id')
        .where('attachment_chunks.seq', '=', seq)
        .select('attachment_chunks.bytes')
        .executeTakeFirst();
      return found?.bytes;
    },
    viewer.organizationId,
  );
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
    .select('attachment_files.print_content')
    .where('attachments.dossier_id', '=', dossierId)
    .where('attachments.organization_id', '=', viewer.organizationId)
    .orderBy('attachments.created_at')
    .orderBy('attachments.id')
    .execute();
  // The bytes as uploaded, of those without a print version only.
  const chunks = await uploadedChunks(
    db,
    viewer,
    rows.filter((r) => r.print_content === null).map((r) => r.id),
  );
  // A file has bytes (uploads are never empty): one without any was deleted after the first
  // query read its row (PostgreSQL runs the two apart), and is left out as deleted.
  return rows.flatMap(({ print_content: print, ...row }) => {
    const uploadedBytes = chunks.get(row.id);
    if (print === null && uploadedBytes === undefined) return [];
    return [
      {
        row,
        content: print ?? joinedChunks(uploadedBytes ?? []),
        printed: print !== null,
      },
    ];
  });
}

/** The stored rows of the bytes as uploaded of the viewer's attachments `ids`, by attachment. */
async function uploadedChunks(
  db: Db,
  viewer: Viewer,
  ids: readonly string[],
): Promise<Map<string, Uint8Array[]>> {
  const chunks = new Map<string, Uint8Array[]>();
  if (ids.length === 0) return chunks;
  const found = await db
    .selectFrom('attachment_chunks')
    .innerJoin('attachments', 'attachments.id', 'attachment_chunks.attachment_id')
    .select(['attachment_chunks.attachment_id', 'attachment_chunks.bytes'])
    .where('attachments.organization_id', '=', viewer.organizationId)
    .where('attachment_chunks.attachment_id', 'in', ids)
    .orderBy('attachment_chunks.attachment_id')
    .orderBy('attachment_chunks.seq')
    .execute();
  for (const { attachment_id: id, bytes } of found) {
    const list = chunks.get(id) ?? [];
    list.push(bytes);
    chunks.set(id, list);
  }
  return chunks;
}

/** A dossier's PDF attachments stored before copy weights were kept, oldest first. */
export async function selectUnweighedPdfs(
  db: Db,
  viewer: Viewer,
  dossierId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('attachments')
    .select('id')
    .where('dossier_id', '=', dossierId)
    .where('organization_id', '=', viewer.organizationId)
    .where('content_type', '=', 'application/pdf')
    .where('copy_weight', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The bytes as uploaded of one of the viewer's attachments; undefined when it is gone. */
export async function uploadedContent(
  db: Db,
  viewer: Viewer,
  attachmentId: string,
): Promise<Buffer | undefined> {
  const found = (await uploadedChunks(db, viewer, [attachmentId])).get(attachmentId);
  return found ? joinedChunks(found) : undefined;
}

/** Keeps the copy weight of a stored PDF attachment weighed after it was stored. */
export async function storeCopyWeight(
  db: Db,
  viewer: Viewer,
  attachmentId: string,
  copyWeight: number,
): Promise<void> {
  await db
    .updateTable('attachments')
    .set({ copy_weight: copyWeight })
    .where('id', '=', attachmentId)
    .where('organization_id', '=', viewer.organizationId)
    .execute();
}

/**
 * Keeps the print version of a stored attachment that has none (uploaded before uploads made
 * them), so that only the first report after that pays for it; not where it would take the
 * organization's files past its storage `budget` (its reports then make it each time).
 */
export async function storePrintVersion(
  db: Db,
  viewer: Viewer,
  attachmentId: string,
  print: Uint8Array,
  budget: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    try {
      await refuseBeyondStorage(trx, viewer.organizationId, print.length, budget);
    } catch (error) {
      if (error instanceof AppError) return;
      throw error;
    }
    const { numUpdatedRows } = await trx
      .updateTable('attachment_files')
      .set({ print_content: print })
      .where('attachment_id', '=', attachmentId)
      .where('attachment_id', 'in', (eb) =>
        eb
          .selectFrom('attachments')
          .select('id')
          .where('organization_id', '=', viewer.organizationId),
      )
      .executeTakeFirst();
    // Counted in the organization's stored bytes (organization-storage.ts) from now on.
    if (numUpdatedRows > 0n) {
      await trx
        .updateTable('attachments')
        .set({ print_size: print.length })
        .where('id', '=', attachmentId)
        .execute();
    }
  });
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
