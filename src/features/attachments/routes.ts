import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { callerOf } from '../../http/auth.js';
import { partialResponse, sendStored } from '../../http/download.js';
import { LOCATION_HEADER, withHeaders } from '../../http/schemas.js';
import { featureRoutes, type FeatureRouteDefaults } from '../../http/routes.js';
import { limits } from '../../limits.js';
import { pendingForm, uploadScope, type FormSpec } from '../../http/form-upload.js';
import {
  addAttachment,
  attachmentFile,
  attachmentUrl,
  listAttachments,
  removeAttachment,
} from './attachments.js';
import {
  ATTACHMENT_RULES,
  AttachmentCreated,
  AttachmentFile,
  AttachmentList,
  AttachmentListParams,
  AttachmentParams,
  AttachmentUploadBody,
} from './schemas.js';
import { ATTACHMENT_TYPES } from '../../accounts/tables.js';

const LIST_PATH = '/api/v1/dossiers/:id/attachments';
const ONE_PATH = '/api/v1/dossiers/:id/attachments/:attachmentId';
const FEATURE: FeatureRouteDefaults = { auth: 'bearer-or-query', tags: ['dossiers'] };

const ACCESS_TEXT =
  'Attachments are seen and changed exactly as their dossier: by every member of its ' +
  'organization; anyone else gets the 404 of a missing id. The token may also be sent as the ' +
  '`access_token` query parameter.';

/** The upload form: the file, its type and an optional title. */
export const ATTACHMENT_FORM: FormSpec = {
  fileField: 'file',
  textFields: ['type', 'title'],
  fileBytes: limits.attachments.fileBytes,
  requestBytes: limits.attachments.requestBytes,
  fileNoun: 'the file',
  fileWhat: 'the PNG, JPEG or PDF',
};

export function attachmentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps = serviceDeps(ctx);
  const routes = featureRoutes(app, FEATURE);

  routes.get(
    LIST_PATH,
    {
      operationId: 'listAttachments',
      summary: 'List a dossier’s attachments',
      description: `Oldest first, without their bytes. ${ACCESS_TEXT}`,
      params: AttachmentListParams,
      response: { 200: AttachmentList },
      errors: [400, 404],
    },
    (request) => listAttachments(deps, callerOf(request), request.params.id),
  );

  routes.get(
    ONE_PATH,
    {
      operationId: 'downloadAttachment',
      summary: 'Download an attachment',
      description: `The file as uploaded, with its recognised type. ${ACCESS_TEXT}`,
      params: AttachmentParams,
      response: { 200: AttachmentFile, 206: partialResponse(AttachmentFile) },
      errors: [400, 404, 416],
    },
    async (request, reply) => {
      const { params } = request;
      const file = await attachmentFile(deps, callerOf(request), params.id, params.attachmentId);
      return sendStored(request, reply, {
        id: file.row.id,
        title: file.row.title,
        contentType: file.row.content_type,
        bytes: file.bytes,
      });
    },
  );

  routes.delete(
    ONE_PATH,
    {
      operationId: 'deleteAttachment',
      summary: 'Delete an attachment',
      description: `The attachment and its bytes. ${ACCESS_TEXT}`,
      params: AttachmentParams,
      response: { 204: Type.Null({ description: 'Deleted; no body.' }) },
      errors: [400, 404],
    },
    async (request, reply) => {
      const { params } = request;
      await removeAttachment(deps, callerOf(request), params.id, params.attachmentId);
      return reply.code(204).send(null);
    },
  );

  uploadScope(app, ATTACHMENT_FORM, (scope) =>
    featureRoutes(scope, FEATURE).post(
      LIST_PATH,
      {
        operationId: 'uploadAttachment',
        summary: 'Attach a file to a dossier',
        description:
          '`multipart/form-data` with the file field `file`, the text field `type` ' +
          `(${ATTACHMENT_TYPES.map((t) => `\`${t}\``).join(', ')}) and optionally \`title\` ` +
          `(else the file name). ${ATTACHMENT_RULES} The whole body may have ` +
          `${String(limits.attachments.requestBytes)} bytes, declared or counted as it ` +
          'arrives. Refusals store nothing: not multipart → 415; over a size limit → 413; not ' +
          'a PNG, JPEG or PDF, an image too large or not decodable, a bad `type` or `title`, a ' +
          'missing or extra field → 400; the dossier already holding its most attachments, or ' +
          'bytes with this file → 409 (a full dossier before the body is read), and so is a ' +
          'file that would take the organization’s attachments and covers past its storage ' +
          'budget; the organization ' +
          `already having ${String(limits.uploads.bytesUnderWayPerOrganization)} bytes of uploads under way → 429. ` +
          ACCESS_TEXT,
        params: AttachmentListParams,
        body: AttachmentUploadBody,
        response: { 201: withHeaders(AttachmentCreated, LOCATION_HEADER) },
        errors: [400, 404, 409, 413, 415],
      },
      async (request, reply) => {
        const { id } = request.params;
        const created = await addAttachment(
          deps,
          callerOf(request),
          id,
          pendingForm(ATTACHMENT_FORM, request),
        );
        return reply.code(201).header('location', attachmentUrl(id, created.id)).send(created);
      },
    ),
  );
}
