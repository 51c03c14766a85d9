import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { callerOf } from '../../http/auth.js';
import { featureRoutes } from '../../http/routes.js';
import { RETRY_AFTER_HEADER, type WithDefaults } from '../../http/schemas.js';
import { limits } from '../../limits.js';
import { createLink, linksOf, PAGE_PATH, revoke } from './dossier-links.js';
import { askedLanguage, openSharedPage, pageState } from './page.js';
import { notFoundPage, PAGE_CSP } from './page-html.js';
import { underPagePath } from './page-path.js';
import {
  CreatedLink,
  CreateLinkRequest,
  htmlPage,
  LinkList,
  LinkListQuery,
  LinkParams,
  PageParams,
  PageQuery,
} from './schemas.js';
import { addressKey } from '../../http/client-address.js';

const BASE = '/api/v1/dossiers/links';

const ACCESS_TEXT =
  'Links belong to the organization of their dossier: every member creates, lists and revokes ' +
  'them; another organization’s link or dossier is a 404 as a missing one.';

const { page } = limits.dossierLinks;

export function dossierLinkRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps = {
    ...serviceDeps(ctx),
    publicBaseUrl: ctx.config.publicBaseUrl,
    page: pageState(),
  };
  const routes = featureRoutes(app, { auth: 'bearer-or-query', tags: ['dossiers'] });

  routes.post(
    BASE,
    {
      operationId: 'createDossierLink',
      summary: 'Share a dossier: a link to a read-only page',
      description:
        `\`url\` opens, without login, a page of the dossier (facts, valuation today, offers ` +
        'nearby, trend) in `locale`’s language, until `daysToLive` days have passed or the ' +
        'link is revoked; then it is a plain 404 page. The secret in the URL has 256 random ' +
        'bits; only its SHA-256 is kept, so the URL is shown only here. At most ' +
        `${String(limits.dossierLinks.perDossier)} open links per dossier (then \`409\`; revoked ` +
        'and expired ones do not count). ' +
        ACCESS_TEXT,
      body: CreateLinkRequest,
      response: { 201: CreatedLink },
      errors: [400, 404, 409, 413, 415],
    },
    async (request, reply) => {
      // The schema's defaults (daysToLive, locale) are filled in by the validator.
      const body = request.body as WithDefaults<CreateLinkRequest, 'daysToLive' | 'locale'>;
      return reply.code(201).send(await createLink(deps, callerOf(request), body));
    },
  );

  routes.get(
    BASE,
    {
      operationId: 'listDossierLinks',
      summary: 'List sharing links',
      description:
        'The organization’s links, or one dossier’s, revoked and expired ones included ' +
        '(`isActive` false); newest first (creation time, then id). Paged by `limit` and ' +
        `\`offset\` (at most ${String(limits.dossierLinks.pageSize)} a page, the default: a ` +
        'dossier’s open links fit in one); `totalItems` counts all pages. ' +
        ACCESS_TEXT,
      querystring: LinkListQuery,
      response: { 200: LinkList },
      errors: [400],
    },
    (request) =>
      // The schema's defaults (limit, offset) are filled in by the validator.
      linksOf(
        deps,
        callerOf(request),
        request.query as WithDefaults<LinkListQuery, 'limit' | 'offset'>,
      ),
  );

  routes.delete(
    `${BASE}/:id`,
    {
      operationId: 'revokeDossierLink',
      summary: 'Revoke a sharing link',
      description: `Its page is a 404 from now on; revoking again changes nothing. ${ACCESS_TEXT}`,
      params: LinkParams,
      response: { 204: Type.Null({ description: 'Revoked.' }) },
      errors: [400, 404],
    },
    async (request, reply) => {
      await revoke(deps, callerOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  routes.get(
    `${PAGE_PATH}/:token`,
    {
      auth: 'none',
      page: true,
      operationId: 'getSharedDossierPage',
      summary: 'The shared page of a dossier (HTML)',
      description:
        'A server-rendered HTML page, no login: the link’s secret is the last path segment. ' +
        'It loads nothing from elsewhere and runs no script (its Content-Security-Policy ' +
        'allows only its own inline style). Unknown, expired or revoked: a plain HTML 404 page. ' +
        `At most ${String(page.viewsPerAddress)} views per client address and ` +
        `${String(page.viewsPerLink)} per link in ${String(page.windowMs / 1000)} s; beyond ` +
        'either, a plain HTML 429 page with `Retry-After`. What the page shows is computed in ' +
        'the owning organization’s turn for costly work (a plain HTML 429 or 503 page with ' +
        '`Retry-After` when it gets none; a 503 page too while the account database is busy ' +
        'or unreachable) and kept for ' +
        `${String(page.cacheMs / 60_000)} minutes per link, market snapshot, dossier content ` +
        'and day: repeated views compute nothing.',
      params: PageParams,
      querystring: PageQuery,
      response: {
        200: htmlPage('The page of the dossier.'),
        404: htmlPage('A plain page: no such link, or expired, revoked, or its dossier gone.'),
        429: htmlPage(
          'A plain page: too many views, or too much costly work waiting.',
          RETRY_AFTER_HEADER,
        ),
        503: htmlPage(
          'A plain page: no turn for its costly work in time, or the account database busy or unreachable.',
          RETRY_AFTER_HEADER,
        ),
      },
    },
    async (request, reply) => {
      const shown = await openSharedPage(deps, {
        secret: request.params.token,
        lang: askedLanguage(request.query.lang),
        address: addressKey(request.ip),
      });
      if (shown.retryAfter !== undefined) reply.header('retry-after', String(shown.retryAfter));
      return sendPage(reply, shown.status, shown.html);
    },
  );
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .send(html);
}

/**
 * Answers a request no route takes (a secret longer than a path parameter may be, bad
 * percent-encoding, a path under the page's that is not a page) with the shared page's 404 when
 * its path is under the pages' however spelled (`underPagePath`): a person who opens a mangled
 * link gets a page, not an error document that repeats its secret. False for other paths.
 */
export function answerBrokenPageLink(url: string, reply: FastifyReply): boolean {
  if (!underPagePath(url)) return false;
  void sendPage(reply, 404, notFoundPage('en'));
  return true;
}
