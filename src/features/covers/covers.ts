import { createHash, randomUUID } from 'node:crypto';
import { refuseBeyondStorage } from '../../accounts/organization-storage.js';
import type { ServiceDeps } from '../../app-context.js';
import type { CoverSide } from '../../accounts/tables.js';
import { invalidField, throwFieldErrors } from '../../http/field-errors.js';
import { AppError, notFound } from '../../http/problem.js';
import type { AnswerClaim } from '../../http/answer-deadline.js';
import { limits } from '../../limits.js';
import { requireAdmin, type Caller } from '../../http/caller.js';
import { PdfRefusal } from '../../pdf/pdf-inspection.js';
import type { StoredBytes } from '../../accounts/stored-bytes.js';
import type { CoverCreated, CoverItem, CoverList, CoverScope } from './schemas.js';
import {
  deleteCovers,
  findCoverDownload,
  insertCover,
  lockOwner,
  selectCovers,
  setPositions,
  type CoverKind,
  type CoverRow,
} from './store.js';
import { orderErrors } from './validate.js';
import { titleFromFileName } from '../../http/file-title.js';
import type { PendingUpload } from '../../http/form-upload.js';

export const coverUrl = (id: string): string => `/api/v1/user-settings/covers/file/${id}`;

/** What the cover operations need: the account store, the PDF inspector and the time. */
export type CoverDeps = Pick<
  ServiceDeps,
  'db' | 'pdfInspector' | 'now' | 'storageBytesPerOrganization' | 'organizationTurns'
>;

/** The owner and side a path names: the caller's own covers, or their organization's. */
export interface CoverPath {
  scope: CoverScope;
  side: CoverSide;
}

function coverKind(caller: Caller, { scope, side }: CoverPath): CoverKind {
  return {
    organizationId: caller.organizationId,
    userId: scope === 'user' ? caller.userId : null,
    side,
  };
}

/** Members read their organization's covers; only its admins change them. */
function requireCoverEditor(caller: Caller, { scope }: CoverPath): void {
  if (scope === 'organization') requireAdmin(caller, 'change organization covers');
}

function toItem(row: CoverRow): CoverItem {
  return {
    uuid: row.id,
    title: row.title,
    url: coverUrl(row.id),
    pages: row.pages,
    size: row.size,
    createdAt: row.created_at,
  };
}

export async function listCovers(
  deps: CoverDeps,
  caller: Caller,
  path: CoverPath,
): Promise<{ list: CoverList; tag: string }> {
  const rows = await selectCovers(deps.db, coverKind(caller, path));
  return { list: { items: rows.map(toItem) }, tag: listTag(rows) };
}

/**
 * The version of a list of covers, as an entity tag: the covers in their order. A reorder sent
 * with it in `If-Match` applies only to the list it was made from, so that a cover uploaded
 * meanwhile (which the reorder would delete, as one it does not list) is not lost unseen.
 */
function listTag(rows: readonly { id: string }[]): string {
  const digest = createHash('sha256')
    .update(rows.map((row) => row.id).join(','))
    .digest('base64url');
  return `"${digest.slice(0, 22)}"`;
}

/** Whether an `If-Match` header lets a change of the list tagged `tag` go ahead. */
function matches(ifMatch: string | undefined, tag: string): boolean {
  if (ifMatch === undefined) return true;
  return ifMatch.split(',').some((given) => {
    const trimmed = given.trim();
    return trimmed === '*' || trimmed === tag;
  });
}

export interface Upload {
  fileName: string;
  bytes: Buffer;
}

/**
 * Reads the upload only once the caller may add covers here and the side has room (a refused
 * caller's body is never read) and the organization's uploads under way leave room for it
 * (`UploadBudget`, else 429), checks it is an acceptable PDF, then stores it as the last cover
 * of its kind, bytes and all, in one transaction that checks the room again: either the cover
 * exists with its file or nothing was stored.
 */
export async function addCover(
  deps: CoverDeps,
  caller: Caller,
  path: CoverPath,
  pending: PendingUpload<Upload>,
): Promise<CoverCreated> {
  requireCoverEditor(caller, path);
  const kind = coverKind(caller, path);
  refuseWhenFull(kind, await selectCovers(deps.db, kind));
  return deps.pdfInspector.uploads.run(caller.organizationId, pending.declaredBytes, async () =>
    storeCover(deps, caller, kind, await pending.read(), pending.answer),
  );
}

/** A 409 when the side of `kind` holding `existing` covers has no room for another. */
function refuseWhenFull(kind: CoverKind, existing: readonly unknown[]): void {
  const max = limits.covers.perOwnerAndSide;
  if (existing.length >= max) {
    throw new AppError(
      'conflict',
      `There are already ${String(max)} ${kind.side} covers here, the most allowed; remove one ` +
        '(PUT the list without it) before adding another',
    );
  }
}

async function storeCover(
  deps: CoverDeps,
  caller: Caller,
  kind: CoverKind,
  upload: Upload,
  answer: AnswerClaim,
): Promise<CoverCreated> {
  let pages: number;
  try {
    ({ pages } = await deps.pdfInspector.inspect(upload.bytes, caller.organizationId));
  } catch (error) {
    if (!(error instanceof PdfRefusal)) throw error;
    throw invalidField('/cover', error.reason);
  }
  const row: CoverRow = {
    id: randomUUID(),
    organization_id: kind.organizationId,
    user_id: kind.userId,
    side: kind.side,
    position: 0,
    title: titleFromFileName(upload.fileName, limits.covers.titleChars, 'cover.pdf'),
    pages,
    size: upload.bytes.length,
    created_at: deps.now().toISOString(),
  };
  await deps.organizationTurns.run(kind.organizationId, () =>
    deps.db.transaction().execute(async (trx) => {
      await lockOwner(trx, kind);
      answer.claim();
      const existing = await selectCovers(trx, kind);
      refuseWhenFull(kind, existing);
      await refuseBeyondStorage(
        trx,
        kind.organizationId,
        row.size,
        deps.storageBytesPerOrganization,
      );
      row.position = Math.max(-1, ...existing.map((c) => c.position)) + 1;
      await insertCover(trx, row, upload.bytes);
    }),
  );
  return { uuid: row.id, title: row.title, url: coverUrl(row.id) };
}

/**
 * Makes `uuids` the covers of this kind, in that order, and deletes the others, in one
 * transaction. Any uuid that is not a cover of this kind, or listed twice, refuses the whole
 * request and changes nothing.
 */
export async function setCoverOrder(
  deps: CoverDeps,
  caller: Caller,
  path: CoverPath,
  uuids: readonly string[],
  /** The request's `If-Match`: the list's version the order was made from. */
  ifMatch?: string,
): Promise<void> {
  requireCoverEditor(caller, path);
  const kind = coverKind(caller, path);
  await deps.organizationTurns.run(kind.organizationId, () =>
    deps.db.transaction().execute(async (trx) => {
      await lockOwner(trx, kind);
      const existing = await selectCovers(trx, kind);
      if (!matches(ifMatch, listTag(existing))) {
        throw new AppError(
          'precondition_failed',
          `The covers changed since the list was read (If-Match ${String(ifMatch)}, now ` +
            `${listTag(existing)}): read the list again and send the order made from it`,
        );
      }
      throwFieldErrors(orderErrors(uuids, new Set(existing.map((c) => c.id))));
      const keep = new Set(uuids);
      await deleteCovers(
        trx,
        existing.filter((c) => !keep.has(c.id)).map((c) => c.id),
      );
      await setPositions(trx, [...uuids]);
    }),
  );
}

/** A cover's file, if the caller may see it; otherwise the same 404 as for a missing one. */
export async function coverFile(
  deps: CoverDeps,
  caller: Caller,
  id: string,
): Promise<{ title: string; bytes: StoredBytes }> {
  const file = await findCoverDownload(deps.db, caller, id);
  if (!file) throw notFound('Cover');
  return file;
}
