import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { callerOf } from '../../http/auth.js';
import { registerJsonType } from '../../http/json-body.js';
import { featureRoutes } from '../../http/routes.js';
import type { WithDefaults } from '../../http/schemas.js';
import { limits } from '../../limits.js';
import { dropEmptyCoordinatesOfBody } from './empty-coordinates.js';
import {
  createDossier,
  pageOfDossiers,
  patchDossier,
  readDossier,
  removeDossier,
  replaceDossierContent,
} from './dossiers.js';
import {
  Created,
  DossierBody,
  DossierReplace,
  DossierList,
  DossierParams,
  DossierPatch,
  DossierRead,
  ListQuery,
  LOCATION_TEXT,
} from './schemas.js';

const BASE = '/api/v1/dossiers';

const ACCESS_TEXT =
  'A dossier belongs to the organization of its creator: every member of it (admin or not) ' +
  'reads, changes and deletes it. Another organization’s dossier is a 404 identical to a ' +
  'missing id. The token may also be sent as the `access_token` query parameter.';

const RULES_TEXT =
  `${LOCATION_TEXT} Unknown properties, values out of range, \`renovationYear\` before ` +
  '`buildingYear`, or an unknown postcode without coordinates are each a 400 whose ' +
  '`errors[].path` names the field; a country outside the market is `400 unsupported_country`.';

const NoContent = Type.Null({ description: 'Done; no body.' });

/** Merge patches arrive as `application/merge-patch+json` (RFC 7396) or plain JSON. */
const MERGE_PATCH = 'application/merge-patch+json';

export function dossierRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps = serviceDeps(ctx);
  registerJsonType(app, MERGE_PATCH, ['PATCH']);
  const routes = featureRoutes(app, { auth: 'bearer-or-query', tags: ['dossiers'] });

  routes.post(
    BASE,
    {
      operationId: 'createDossier',
      summary: 'Create a dossier',
      description:
        `${RULES_TEXT} ${ACCESS_TEXT} At most ${limits.dossiers.perOrganization} dossiers per ` +
        'organization: beyond, `409 conflict`.',
      body: DossierBody,
      check: (request) => {
        dropEmptyCoordinatesOfBody(request.body);
      },
      response: { 201: Created },
      errors: [400, 409, 413, 415],
    },
    async (request, reply) => {
      const id = await createDossier(deps, callerOf(request), request.body);
      return reply.code(201).send({ id });
    },
  );

  routes.get(
    BASE,
    {
      operationId: 'listDossiers',
      summary: 'List the organization’s dossiers, newest first',
      description:
        'Paged by `limit` and `offset`; `totalItems` counts all the organization’s dossiers. ' +
        'Newest first (creation time, then id), so pages do not overlap while nothing is ' +
        `created. ${ACCESS_TEXT}`,
      querystring: ListQuery,
      response: { 200: DossierList },
      errors: [400],
    },
    async (request, reply) => {
      // The schema's defaults (limit, offset) are filled in by the validator.
      const page = request.query as WithDefaults<ListQuery, 'limit' | 'offset'>;
      // The items are written by the response schema's own serializer, one at a time.
      const serialize = reply.compileSerializationSchema(
        DossierRead as unknown as Record<string, unknown>,
      ) as (item: unknown) => string;
      const text = await pageOfDossiers(deps, callerOf(request), page, serialize);
      // A stream is sent as it is: the JSON text above, not the schema's serializer's.
      return reply.type('application/json; charset=utf-8').send(text as never);
    },
  );

  routes.get(
    `${BASE}/:id`,
    {
      operationId: 'getDossier',
      summary: 'Read a dossier',
      description: `The dossier as written, with its id and times; ${LOCATION_TEXT} ${ACCESS_TEXT}`,
      params: DossierParams,
      response: { 200: DossierRead },
      errors: [400, 404],
    },
    (request) => readDossier(deps, callerOf(request), request.params.id),
  );

  routes.put(
    `${BASE}/:id`,
    {
      operationId: 'replaceDossier',
      summary: 'Replace a dossier',
      description:
        'The whole dossier, validated as on creation: left-out optional fields are removed. A ' +
        'dossier as read may be sent back: its `id` must be the path’s, its times are ignored. ' +
        `${RULES_TEXT} ${ACCESS_TEXT}`,
      params: DossierParams,
      body: DossierReplace,
      check: (request) => {
        dropEmptyCoordinatesOfBody(request.body);
      },
      response: { 204: NoContent },
      errors: [400, 404, 413, 415],
    },
    async (request, reply) => {
      await replaceDossierContent(deps, callerOf(request), request.params.id, request.body);
      return reply.code(204).send(null);
    },
  );

  routes.patch(
    `${BASE}/:id`,
    {
      operationId: 'patchDossier',
      summary: 'Change part of a dossier (JSON merge patch)',
      description:
        `RFC 7396 merge patch, sent as \`${MERGE_PATCH}\` or \`application/json\`, applied to ` +
        'the dossier as it reads: a member given replaces, `null` removes it, objects merge ' +
        'member by member, arrays replace. `[]` is taken as the empty patch `{}` (how PHP ' +
        'encodes an empty array): it changes nothing. The result must be a valid whole dossier (400 ' +
        'otherwise, nothing changed). A patch that sets or removes ' +
        '`property.location.coordinates` without `precision` makes the point exact again (or ' +
        `the postcode centroid when removed). ${RULES_TEXT} ${ACCESS_TEXT}`,
      params: DossierParams,
      body: DossierPatch,
      consumes: [MERGE_PATCH, 'application/json'],
      // `coordinates: {}` changes nothing in a merge patch, as it means nothing on creation.
      check: (request) => {
        dropEmptyCoordinatesOfBody(request.body);
      },
      response: { 204: NoContent },
      errors: [400, 404, 409, 413, 415],
    },
    async (request, reply) => {
      await patchDossier(deps, callerOf(request), request.params.id, request.body);
      return reply.code(204).send(null);
    },
  );

  routes.delete(
    `${BASE}/:id`,
    {
      operationId: 'deleteDossier',
      summary: 'Delete a dossier',
      description:
        'With its attachments, sharing links and valuation record. `204` with no body but ' +
        '`Content-Type: application/json` (a client that parses only JSON answers reads it as ' +
        `none). ${ACCESS_TEXT}`,
      params: DossierParams,
      response: { 204: NoContent },
      errors: [400, 404],
    },
    async (request, reply) => {
      await removeDossier(deps, callerOf(request), request.params.id);
      // No body, but said to be JSON: the Ruby client parses only a JSON answer, and reads an
      // unparsed (empty text) body as an object, which fails. Sent as `undefined`: Fastify
      // drops the content type of a `null` payload.
      return reply
        .code(204)
        .type('application/json')
        .send(undefined as unknown as null);
    },
  );
}
