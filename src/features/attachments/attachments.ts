import { refuseBeyondStorage } from '../../accounts/organization-storage.js';
import { randomUUID } from 'node:crypto';
import type { ServiceDeps } from '../../app-context.js';
import type { AttachmentRow } from '../../accounts/tables.js';
import type { Caller } from '../../http/caller.js';
import type { AnswerClaim } from '../../http/answer-deadline.js';
import { invalidField, invalidFields } from '../../http/field-errors.js';
import { AppError, notFound } from '../../http/problem.js';
import { mib } from '../../bytes-text.js';
import { limits } from '../../limits.js';
import type { AttachmentFacts } from '../../pdf/image-inspection.js';
import { PdfRefusal } from '../../pdf/pdf-inspection.js';
import { VALUES_PER_OBJECT } from '../../pdf/pdf-structure.js';
import { visibleDossier } from '../dossiers/dossiers.js';
import { lockDossier } from '../dossiers/store.js';
import type { FormUpload, PendingUpload } from '../../http/form-upload.js';
import type { AttachmentCreated, AttachmentItem, AttachmentList } from './schemas.js';
import {
  deleteAttachment,
  findAttachmentDownload,
  insertAttachment,
  selectAttachments,
  countedSize,
  attachmentLoads,
  selectUnweighedPdfs,
  storeCopyWeight,
  uploadedContent,
  type AttachmentDownload,
  type AttachmentLoad,
} from './store.js';
import { checkFields } from './validate.js';
import { titleFromFileName } from '../../http/file-title.js';

/** What the attachment operations need: the account store, the file inspector and the time. */
export type AttachmentDeps = Pick<
  ServiceDeps,
  'db' | 'pdfInspector' | 'now' | 'storageBytesPerOrganization' | 'organizationTurns'
>;

export const attachmentUrl = (dossierId: string, id: string): string =>
  `/api/v1/dossiers/${dossierId}/attachments/${id}`;

const EXTENSIONS = { 'image/png': 'png', 'image/jpeg': 'jpg', 'application/pdf': 'pdf' } as const;

function toItem(row: AttachmentRow): AttachmentItem {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    contentType: row.content_type,
    size: row.size,
    url: attachmentUrl(row.dossier_id, row.id),
    width: row.width,
    height: row.height,
    pages: row.pages,
    createdAt: row.created_at,
  };
}

/** The caller's organization's dossier's attachments; a foreign or missing dossier is a 404. */
export async function listAttachments(
  deps: AttachmentDeps,
  caller: Caller,
  dossierId: string,
): Promise<AttachmentList> {
  await visibleDossier(deps.db, caller, dossierId);
  return { items: (await selectAttachments(deps.db, caller, dossierId)).map(toItem) };
}

async function inspect(
  deps: AttachmentDeps,
  caller: Caller,
  bytes: Buffer,
): Promise<AttachmentFacts> {
  try {
    return await deps.pdfInspector.inspectAttachment(bytes, caller.organizationId);
  } catch (error) {
    if (!(error instanceof PdfRefusal)) throw error;
    throw invalidField('/file', error.reason);
  }
}

/**
 * Reads the upload only once the dossier is known to be the caller's and has room for another
 * attachment (a foreign or full dossier's body is never read) and the organization's uploads
 * under way leave room for it (`UploadBudget`, else 429), checks its fields and its bytes (in
 * the inspection worker), then stores row and bytes in one transaction that holds the
 * per-dossier caps again: all or nothing.
 */
export async function addAttachment(
  deps: AttachmentDeps,
  caller: Caller,
  dossierId: string,
  upload: PendingUpload<FormUpload>,
): Promise<AttachmentCreated> {
  await visibleDossier(deps.db, caller, dossierId);
  refuseWhenFull(await attachmentLoads(deps.db, caller, dossierId), NOTHING);
  return deps.pdfInspector.uploads.run(caller.organizationId, upload.declaredBytes, async () =>
    storeAttachment(deps, caller, dossierId, await upload.read(), upload.answer),
  );
}

/** What a dossier is asked for before an upload's body is read: room for one more file. */
const NOTHING: AttachmentLoad = { bytes: 0, copyWeight: 0 };

/**
 * A 409 when a dossier whose attachments count `existing` cannot take one counting `added`
 * more: in number, in bytes (`countedSize`) or in copy weight (a PDF's, `trialMerge`).
 */
function refuseWhenFull(existing: readonly AttachmentLoad[], added: AttachmentLoad): void {
  const max = limits.attachments.perDossier;
  if (existing.length >= max) {
    throw new AppError(
      'conflict',
      `This dossier already has ${String(max)} attachments, the most allowed; delete one first`,
    );
  }
  const bytes = existing.reduce((sum, stored) => sum + stored.bytes, 0) + added.bytes;
  const maxBytes = limits.attachments.bytesPerDossier;
  if (bytes > maxBytes || (added === NOTHING && bytes >= maxBytes)) {
    throw new AppError(
      'conflict',
      `This dossier's attachments would take ${mib(bytes)} MiB with this file (an image ` +
        `as large as the version of it reports print, if larger); at most ` +
        `${mib(maxBytes)} MiB are allowed; delete one first`,
    );
  }
  const weight = existing.reduce((sum, stored) => sum + stored.copyWeight, 0) + added.copyWeight;
  const maxWeight = limits.attachments.copyWeightPerDossier;
  // Only a PDF adds copy weight, and before the body is read it is not known whether the file
  // is one: an image is taken however much the PDFs weigh (PDFs stored before weights were
  // kept can put a dossier over the cap, and it still takes photos and floor plans).
  if (added.copyWeight > 0 && weight > maxWeight) {
    throw new AppError(
      'conflict',
      `This dossier's PDF attachments would have a copy weight of ${String(weight)} with this ` +
        `file (the objects a report copies from them, one more for every ` +
        `${String(VALUES_PER_OBJECT)} values); at most ${String(maxWeight)} is allowed; ` +
        `delete one first`,
    );
  }
}

/**
 * The longest one more file check can take (its wait for the worker, then the check), and room
 * after it to store what it found and the upload itself.
 */
const ONE_CHECK_MS = limits.covers.pdfCheckMaxWaitMs + limits.covers.pdfInspectionMs + 5_000;

/**
 * Weighs the dossier's PDFs stored before copy weights were kept (`trialMerge`, in the
 * inspection worker in the organization's turn) and keeps their weights, so that the dossier's
 * cap counts them. One the checks refuse today for what it is is kept as weighing nothing (a
 * report refuses it too, so it costs no copy), and is not checked again; one refused for the
 * check's time or memory is left for a later upload. A check is begun only where it
 * ends, at the longest, before the upload's answer deadline (a known wait must not run into
 * it); when the worker is busy or stopped, or time runs short, the rest wait for the next upload.
 */
async function weighStoredPdfs(
  deps: AttachmentDeps,
  caller: Caller,
  dossierId: string,
  answer: AnswerClaim,
) {
  for (const id of await selectUnweighedPdfs(deps.db, caller, dossierId)) {
    if (answer.answered || !answer.hasTimeFor(ONE_CHECK_MS)) return;
    const content = await uploadedContent(deps.db, caller, id);
    if (!content) continue;
    let facts;
    try {
      facts = await deps.pdfInspector.inspectAttachment(content, caller.organizationId);
    } catch (error) {
      // Refused for the check's time or memory, it may pass another time (under less load):
      // left unweighed, as when the worker is busy.
      if (!(error instanceof PdfRefusal) || error.limitReached) return;
      await storeCopyWeight(deps.db, caller, id, 0);
      continue;
    }
    if ('copyWeight' in facts) await storeCopyWeight(deps.db, caller, id, facts.copyWeight);
  }
}

async function storeAttachment(
  deps: AttachmentDeps,
  caller: Caller,
  dossierId: string,
  upload: FormUpload,
  answer: AnswerClaim,
): Promise<AttachmentCreated> {
  const checked = checkFields(upload.fields);
  if ('errors' in checked) throw invalidFields(checked.errors);
  const fields = checked.ok;
  const facts = await inspect(deps, caller, upload.bytes);
  if (facts.contentType === 'application/pdf') {
    await weighStoredPdfs(deps, caller, dossierId, answer);
  }
  const row: AttachmentRow = {
    id: randomUUID(),
    dossier_id: dossierId,
    organization_id: caller.organizationId,
    type: fields.type,
    title:
      fields.title ??
      titleFromFileName(
        upload.fileName,
        limits.attachments.titleChars,
        `${fields.type}.${EXTENSIONS[facts.contentType]}`,
      ),
    content_type: facts.contentType,
    size: upload.bytes.length,
    print_size: 'print' in facts && facts.print ? facts.print.length : 0,
    width: 'width' in facts ? facts.width : null,
    height: 'height' in facts ? facts.height : null,
    pages: 'pages' in facts ? facts.pages : null,
    copy_weight: 'copyWeight' in facts ? facts.copyWeight : null,
    created_at: deps.now().toISOString(),
  };
  await deps.organizationTurns.run(caller.organizationId, () =>
    deps.db.transaction().execute(async (trx) => {
      if (!(await lockDossier(trx, caller, dossierId))) throw notFound('Dossier');
      answer.claim();
      // From the inspection worker as a plain Uint8Array; the PostgreSQL driver sends Buffers.
      const print = 'print' in facts && facts.print ? Buffer.from(facts.print) : null;
      refuseWhenFull(await attachmentLoads(trx, caller, dossierId), {
        bytes: countedSize(row.size, print?.length ?? 0),
        copyWeight: row.copy_weight ?? 0,
      });
      await refuseBeyondStorage(
        trx,
        caller.organizationId,
        row.size + row.print_size,
        deps.storageBytesPerOrganization,
      );
      await insertAttachment(trx, row, upload.bytes, print);
    }),
  );
  const { id, type, title, content_type: contentType, size } = row;
  return { id, type, title, contentType, size, url: attachmentUrl(dossierId, id) };
}

/** One attachment with its bytes, if the caller may see it; else the same 404 as a missing one. */
export async function attachmentFile(
  deps: AttachmentDeps,
  caller: Caller,
  dossierId: string,
  id: string,
): Promise<AttachmentDownload> {
  const found = await findAttachmentDownload(deps.db, caller, dossierId, id);
  if (!found) throw notFound('Attachment');
  return found;
}

export async function removeAttachment(
  deps: AttachmentDeps,
  caller: Caller,
  dossierId: string,
  id: string,
): Promise<void> {
  if (!(await deleteAttachment(deps.db, caller, dossierId, id))) throw notFound('Attachment');
}
