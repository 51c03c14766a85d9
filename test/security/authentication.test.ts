import { afterAll, beforeAll, expect, it } from 'vitest';
import { newTokenSecret } from '../../src/accounts/secrets.js';
import { issueToken, revokeTokens } from '../../src/accounts/tokens.js';
import type { AuthMode } from '../../src/http/auth.js';
import { describeBackends } from '../helpers/backends.js';
import { expectProblem } from '../helpers/problem.js';
import { call, createWorld, type World } from '../helpers/world.js';

/**
 * Every route the app serves, with how it authenticates. A route added without an entry here
 * fails the first test, so no route escapes the checks below.
 */
const ROUTES: Record<string, AuthMode> = {
  'GET /health': 'none',
  'GET /ready': 'none',
  'POST /auth/login/credentials': 'none',
  'GET /api/v1/openapi.json': 'none',
  'GET /api/v1/me': 'bearer',
  'POST /api/v1/offers/statistics': 'bearer',
  'GET /api/v1/administrative_divisions': 'bearer',
  'GET /api/v1/administrative_divisions/:countryCode/:level/:id': 'bearer',
  'POST /api/v1/user-settings/templates/list': 'bearer',
  'POST /api/v1/user-settings/templates/': 'bearer',
  'GET /api/v1/user-settings/templates/:id': 'bearer',
  'PUT /api/v1/user-settings/templates/:id': 'bearer',
  'DELETE /api/v1/user-settings/templates/:id': 'bearer',
  'POST /api/v1/user-settings/covers/:scope/:side': 'bearer',
  'GET /api/v1/user-settings/covers/:scope/:side': 'bearer',
  'PUT /api/v1/user-settings/covers/:scope/:side': 'bearer',
  'GET /api/v1/user-settings/covers/file/:uuid': 'bearer',
  'POST /api/v1/dossiers': 'bearer-or-query',
  'GET /api/v1/dossiers': 'bearer-or-query',
  'GET /api/v1/dossiers/:id': 'bearer-or-query',
  'PUT /api/v1/dossiers/:id': 'bearer-or-query',
  'PATCH /api/v1/dossiers/:id': 'bearer-or-query',
  'DELETE /api/v1/dossiers/:id': 'bearer-or-query',
  'POST /api/v1/dossiers/:id/attachments': 'bearer-or-query',
  'GET /api/v1/dossiers/:id/attachments': 'bearer-or-query',
  'GET /api/v1/dossiers/:id/attachments/:attachmentId': 'bearer-or-query',
  'DELETE /api/v1/dossiers/:id/attachments/:attachmentId': 'bearer-or-query',
  'POST /api/v1/dossiers/:id/report': 'bearer-or-query',
  'POST /api/v1/property_tracker': 'bearer-or-query',
  'POST /api/v1/valuation/property_value': 'bearer-or-query',
  'POST /api/v1/valuation/property_value_light': 'bearer-or-query',
  'POST /api/v1/dossiers/:id/valuation': 'bearer-or-query',
  'POST /api/v1/pois': 'bearer-or-query',
  'POST /api/v1/indicators': 'bearer-or-query',
  'POST /api/v1/dossiers/links': 'bearer-or-query',
  'GET /api/v1/dossiers/links': 'bearer-or-query',
  'DELETE /api/v1/dossiers/links/:id': 'bearer-or-query',
  'GET /shared/dossier/:token': 'none',
};

/** A plausible value for each path parameter, so that only authentication can fail first. */
const PARAMS: Record<string, string> = {
  countryCode: 'AT',
  level: '8',
  id: '5f0e7d8c-1b2a-4c3d-9e8f-0a1b2c3d4e5f',
  uuid: '5f0e7d8c-1b2a-4c3d-9e8f-0a1b2c3d4e5f',
  attachmentId: '5f0e7d8c-1b2a-4c3d-9e8f-0a1b2c3d4e5f',
  scope: 'user',
  side: 'front',
  token: 'x'.repeat(43),
};

const concrete = (url: string) => url.replace(/:(\w+)/g, (_, name: string) => PARAMS[name] ?? 'x');

describeBackends('authentication on every route', (backend) => {
  let world: World;
  let expired: string;
  let revoked: string;
  beforeAll(async () => {
    world = await createWorld(backend);
    const db = world.stores.accounts.db;
    expired = (
      await issueToken(db, {
        userId: world.memberA.userId,
        kind: 'api',
        ttlSeconds: 60,
        now: new Date(Date.now() - 3_600_000),
      })
    ).secret;
    revoked = (await issueToken(db, { userId: world.memberA.userId, kind: 'api', ttlSeconds: 600 }))
      .secret;
    await revokeTokens(db, { secret: revoked });
  });
  afterAll(() => world.close());

  it('lists every route the app serves, with its auth mode', () => {
    const served = Object.fromEntries(
      world.app.routeCatalog.map((r) => [`${r.method} ${r.url}`, r.auth]),
    );
    expect(served).toEqual(ROUTES);
  });

  const protectedRoutes = Object.entries(ROUTES).filter(([, mode]) => mode !== 'none');
  // With whether a token was sent: only then does the challenge name an error (RFC 6750 §3.1).
  const cases: [string, () => Record<string, string>, boolean][] = [
    ['no token', () => ({}), false],
    ['a malformed header', () => ({ authorization: 'Bearer' }), false],
    [
      'another scheme',
      () => ({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }),
      false,
    ],
    ['a malformed token', () => ({ authorization: 'Bearer not-a-token' }), true],
    ['an unknown token', () => ({ authorization: `Bearer ${newTokenSecret()}` }), true],
    ['an expired token', () => ({ authorization: `Bearer ${expired}` }), true],
    ['a revoked token', () => ({ authorization: `Bearer ${revoked}` }), true],
  ];

  it.each(protectedRoutes)('%s refuses every bad credential with 401', async (route) => {
    const [method = 'GET', url = '/'] = route.split(' ');
    for (const [what, headers, tokenSent] of cases) {
      const res = await world.app.inject({
        method: method as 'GET',
        url: concrete(url),
        headers: headers(),
      });
      expect(res.statusCode, `${route} with ${what}`).toBe(401);
      expectProblem(res, 401, 'unauthenticated');
      expect(res.headers['www-authenticate'], what).toMatch(
        tokenSent ? /^Bearer realm="api", error="invalid_token"/ : /^Bearer realm="api"$/,
      );
      // Nothing about the accounts leaks into a refusal.
      expect(res.body).not.toMatch(/hash|scrypt|\$[0-9a-f]{16}/i);
    }
  });

  it.each(protectedRoutes)(
    '%s takes ?access_token only where the contract allows it',
    async (route, mode) => {
      const [method = 'GET', url = '/'] = route.split(' ');
      const res = await call(world.app, {
        method: method as 'GET',
        url: `${concrete(url)}?access_token=${world.memberA.token}`,
      });
      if (mode === 'bearer') expectProblem(res, 401, 'unauthenticated');
      else expect(res.statusCode).not.toBe(401);
    },
  );
});
