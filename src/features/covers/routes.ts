import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { callerOf } from '../../http/auth.js';
import { partialResponse, sendStored } from '../../http/download.js';
import { LOCATION_HEADER, withHeaders } from '../../http/schemas.js';
import { featureRoutes, type FeatureRouteDefaults } from '../../http/routes.js';
import { limits } from '../../limits.js';
import { addCover, coverFile, coverUrl, listCovers, setCoverOrder } from './covers.js';
import {
  COVER_RULES,
  CoverCreated,
  CoverFileParams,
  CoverKindParams,
  CoverList,
  CoverOrder,
  CoverPdf,
  CoverUploadBody,
} from './schemas.js';
import { uploadScope } from '../../http/form-upload.js';
import { COVER_FORM, pendingCover } from './cover-form.js';

const KIND_PATH = '/api/v1/user-settings/covers/:scope/:side';
const LIST_TAG_HEADER = {
  ETag: {
    type: 'string' as const,
    description: 'The version of the list: send it as `If-Match` with a reorder made from it.',
  },
};
const FILE_PATH = '/api/v1/user-settings/covers/file/:uuid';
const FEATURE: FeatureRouteDefaults = { auth: 'bearer', tags: ['covers'] };

export function coverRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps = serviceDeps(ctx);
  const routes = featureRoutes(app, FEATURE);

  routes.get(
    KIND_PATH,
    {
      operationId: 'listCovers',
      summary: 'List covers',
      description:
        "The caller's own covers (`user`) or their organization's (`organization`, readable " +
        'by every member) of one side, in their order.',
      params: CoverKindParams,
      response: { 200: withHeaders(CoverList, LIST_TAG_HEADER) },
      errors: [400],
    },
    async (request, reply) => {
      const { list, tag } = await listCovers(deps, callerOf(request), request.params);
      return reply.header('etag', tag).send(list);
    },
  );

  routes.put(
    KIND_PATH,
    {
      operationId: 'reorderCovers',
      summary: 'Reorder and delete covers',
      description:
        'The listed covers become the covers of this owner and side, in the listed order; ' +
        'those not listed are deleted with their files. A uuid that is unknown, listed twice, ' +
        "or another side's, user's or organization's refuses the request (400) and nothing " +
        'changes. Organization covers: admins only (403). With `If-Match` (the `ETag` of the ' +
        'list the order was made from), a list that changed since, such as by a cover ' +
        'uploaded meanwhile, which this order would delete unseen, refuses it (412) and ' +
        'nothing changes; without it the order applies to the list as it is.',
      params: CoverKindParams,
      body: CoverOrder,
      response: { 204: Type.Null({ description: 'Saved; no body.' }) },
      errors: [400, 403, 412, 413, 415],
    },
    async (request, reply) => {
      const uuids = request.body.items.map((item) => item.uuid);
      const ifMatch = request.headers['if-match'];
      await setCoverOrder(deps, callerOf(request), request.params, uuids, ifMatch);
      return reply.code(204).send(null);
    },
  );

  routes.get(
    FILE_PATH,
    {
      operationId: 'downloadCover',
      summary: 'Download a cover',
      description:
        "The PDF, if it is the caller's own cover or their organization's; any other uuid is " +
        'answered 404, whether it exists or not.',
      params: CoverFileParams,
      response: { 200: CoverPdf, 206: partialResponse(CoverPdf) },
      errors: [400, 404, 416],
    },
    async (request, reply) => {
      const file = await coverFile(deps, callerOf(request), request.params.uuid);
      return sendStored(request, reply, {
        id: request.params.uuid,
        title: file.title,
        contentType: 'application/pdf',
        bytes: file.bytes,
      });
    },
  );

  uploadScope(app, COVER_FORM, (scope) =>
    featureRoutes(scope, FEATURE).post(
      KIND_PATH,
      {
        operationId: 'uploadCover',
        summary: 'Upload a cover',
        description:
          `\`multipart/form-data\` with one file field, \`cover\`. ${COVER_RULES} ` +
          `The whole body may have ${String(limits.covers.requestBytes)} bytes, whether its ` +
          'length is declared or not (chunked: counted as it arrives). Refusals store nothing: ' +
          'not multipart → 415; over a size limit → 413; not a readable PDF, too many pages, a ' +
          'missing or extra field, a part that is not a form field, a cover without a file ' +
          'name → 400; the side already full (before the body is read) or the organization’s ' +
          'storage budget spent → 409; the organization ' +
          `already having ${String(limits.uploads.bytesUnderWayPerOrganization)} bytes of uploads under way → 429. Organization covers: admins ` +
          'only (403). ' +
          'The title is the file name.',
        params: CoverKindParams,
        body: CoverUploadBody,
        response: { 201: withHeaders(CoverCreated, LOCATION_HEADER) },
        errors: [400, 403, 409, 413, 415],
      },
      async (request, reply) => {
        const created = await addCover(
          deps,
          callerOf(request),
          request.params,
          pendingCover(request),
        );
        return reply.code(201).header('location', coverUrl(created.uuid)).send(created);
      },
    ),
  );
}
