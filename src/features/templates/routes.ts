import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { callerOf } from '../../http/auth.js';
import { featureRoutes } from '../../http/routes.js';
import { limits } from '../../limits.js';
import { ensureProviderTemplates } from './provider-templates.js';
import {
  Created,
  ListBody,
  TemplateBody,
  TemplateList,
  TemplateParams,
  TemplateRead,
} from './schemas.js';
import {
  createTemplate,
  listTemplates,
  readTemplate,
  removeTemplate,
  updateTemplate,
} from './templates.js';
import { TEMPLATE_COUNTRIES } from './section-rules.js';

const BASE = '/api/v1/user-settings/templates';

const LEVELS_TEXT =
  '`user` templates are seen and changed only by their creator; `organization` templates are ' +
  'seen by every member and created, changed and deleted only by its admins (403 for others); ' +
  '`provider` templates are seen by everyone and cannot be created, changed or deleted (403). ' +
  'Another organization’s template, or another user’s user template, is a 404 like a missing id.';

const RULES_TEXT =
  '`sections` must hold every section type available in the country exactly once, each with ' +
  'exactly its configuration items (table in the README, "Report templates"); `valuation` only, ' +
  'and then required, with the `appraisal` layout. Each broken rule is a 400 whose `errors[].path` ' +
  `points at the section or item. \`title\` is trimmed and must keep 1–${limits.templates.titleChars} characters.`;

const NoContent = Type.Null({ description: 'Done; no body.' });

export function templateRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps = serviceDeps(ctx);
  // The operator's templates exist before the first request is served.
  app.addHook('onReady', () => ensureProviderTemplates(deps.db, deps.now()));

  const routes = featureRoutes(app, { auth: 'bearer', tags: ['templates'] });
  routes.post(
    `${BASE}/list`,
    {
      operationId: 'listTemplates',
      summary: 'List the report templates visible to the caller for one country',
      description:
        'Provider templates first, then the organization’s, then the caller’s own user ' +
        `templates; each group by creation time. A country other than ${TEMPLATE_COUNTRIES.join(', ')} ` +
        'is `400 unsupported_country`.',
      body: ListBody,
      response: { 200: TemplateList },
      errors: [400, 413, 415],
    },
    (request) => listTemplates(deps, callerOf(request), request.body.countryCode),
  );

  routes.post(
    `${BASE}/`,
    {
      operationId: 'createTemplate',
      summary: 'Create a report template',
      description:
        `Defaults: \`rentType\` \`rent_gross\`, \`frontCover\` and \`backCover\` \`true\`. ${LEVELS_TEXT} ` +
        `${RULES_TEXT} At most ${limits.templates.perUser} user templates per user and ` +
        `${limits.templates.perOrganization} organization templates per organization: beyond, ` +
        '`409 conflict`.',
      body: TemplateBody,
      response: { 201: Created },
      errors: [400, 403, 409, 413, 415],
    },
    async (request, reply) => {
      const id = await createTemplate(deps, callerOf(request), request.body);
      return reply.code(201).send({ id });
    },
  );

  routes.get(
    `${BASE}/:id`,
    {
      operationId: 'getTemplate',
      summary: 'Read one report template',
      description: `A one-element array holding the template, without its id. ${LEVELS_TEXT}`,
      params: TemplateParams,
      response: { 200: TemplateRead },
      errors: [400, 404],
    },
    async (request) => [await readTemplate(deps, callerOf(request), request.params.id)],
  );

  routes.put(
    `${BASE}/:id`,
    {
      operationId: 'replaceTemplate',
      summary: 'Replace a report template',
      description:
        'The whole template, validated as on creation (left-out optional fields take their ' +
        'defaults again). `level` cannot change (400). ' +
        `${LEVELS_TEXT} ${RULES_TEXT}`,
      params: TemplateParams,
      body: TemplateBody,
      response: { 204: NoContent },
      errors: [400, 403, 404, 413, 415],
    },
    async (request, reply) => {
      await updateTemplate(deps, callerOf(request), request.params.id, request.body);
      return reply.code(204).send(null);
    },
  );

  routes.delete(
    `${BASE}/:id`,
    {
      operationId: 'deleteTemplate',
      summary: 'Delete a report template',
      description: LEVELS_TEXT,
      params: TemplateParams,
      response: { 204: NoContent },
      errors: [400, 403, 404],
    },
    async (request, reply) => {
      await removeTemplate(deps, callerOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
