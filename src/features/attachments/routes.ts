import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { Type } from 'typebox';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { callerOf } from '../../http/auth.js';
import { sendStored } from '../../http/download.js';
import { errorResponses } from '../../http/schemas.js';
import { validatorCompiler } from '../../http/validation.js';
import { limits } from '../../limits.js';
import { checkFormRequest, multipartOptions, readForm, type FormSpec } from '../covers/upload.js';
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

const LIST_PATH = '/api/v1/dossiers/:id/attachments';
const ONE_PATH = '/api/v1/dossiers/:id/attachments/:attachmentId';
const TAGS = ['dossiers'];

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

// The upload body is a multipart stream the handler reads and checks itself; its schema is
// there for the OpenAPI document only.
const uploadValidator: FastifySchemaCompiler<object> = (route) =>
  route.httpPart === 'body' ? () => true : validatorCompiler(route);

export function attachmentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps = serviceDeps(ctx);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    LIST_PATH,
    {
      config: { auth: 'bearer-or-query' },
      schema: {
        tags: TAGS,
        summary: 'List a dossier’s attachments',
        description: `Oldest first, without their bytes. ${ACCESS_TEXT}`,
        params: AttachmentListParams,
        response: { 200: AttachmentList, ...errorResponses(400, 404) },
      },
    },
    (request) => listAttachments(deps, callerOf(request), request.params.id),
  );

  r.get(
    ONE_PATH,
    {
      config: { auth: 'bearer-or-query' },
      schema: {
        tags: TAGS,
        summary: 'Download an attachment',
        description: `The file as uploaded, with its recognised type. ${ACCESS_TEXT}`,
        params: AttachmentParams,
        response: { 200: AttachmentFile, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const { params } = request;
      const file = await attachmentFile(deps, callerOf(request), params.id, params.attachmentId);
      return sendStored(reply, file.row.title, file.row.content_type, file.bytes);
    },
  );

  r.delete(
    ONE_PATH,
    {
      config: { auth: 'bearer-or-query' },
      schema: {
        tags: TAGS,
        summary: 'Delete an attachment',
        description: `The attachment and its bytes. ${ACCESS_TEXT}`,
        params: AttachmentParams,
        response: {
          204: Type.Null({ description: 'Deleted; no body.' }),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const { params } = request;
      await removeAttachment(deps, callerOf(request), params.id, params.attachmentId);
      return reply.code(204).send(null);
    },
  );

  // Only the upload accepts multipart, so the plugin lives in a scope of its own: every other
  // route still refuses multipart bodies with 415.
  void app.register(async (scope) => {
    await scope.register(multipart, multipartOptions(ATTACHMENT_FORM));
    scope.addHook('onRequest', (request, _reply, done) => {
      try {
        checkFormRequest(ATTACHMENT_FORM, request);
        done();
      } catch (error) {
        done(error as Error);
      }
    });
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      LIST_PATH,
      {
        config: { auth: 'bearer-or-query' },
        validatorCompiler: uploadValidator,
        schema: {
          tags: TAGS,
          summary: 'Attach a file to a dossier',
          description:
            '`multipart/form-data` with the file field `file`, the text field `type` ' +
            '(`floorplan`, `permit`, `marketing`, `valuation`, `other`) and optionally `title` ' +
            `(else the file name). ${ATTACHMENT_RULES} The whole body may have ` +
            `${String(limits.attachments.requestBytes)} bytes, declared or counted as it ` +
            'arrives. Refusals store nothing: not multipart → 415; over a size limit → 413; not ' +
            'a PNG, JPEG or PDF, an image too large or not decodable, a bad `type` or `title`, a ' +
            'missing or extra field → 400; the dossier already holding its most → 409. ' +
            ACCESS_TEXT,
          params: AttachmentListParams,
          body: AttachmentUploadBody,
          response: {
            201: AttachmentCreated,
            ...errorResponses(400, 404, 409, 413, 415),
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const created = await addAttachment(deps, callerOf(request), id, () =>
          readForm(ATTACHMENT_FORM, request),
        );
        return reply.code(201).header('location', attachmentUrl(id, created.id)).send(created);
      },
    );
  });
}
