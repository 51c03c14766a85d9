import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { callerOf } from '../../http/auth.js';
import { featureRoutes } from '../../http/routes.js';
import { login, profileOf, type LoginDeps } from './auth.js';
import { LoginBody, LoginResponse, MeResponse } from './schemas.js';
import { addressKey } from '../../http/client-address.js';

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps: LoginDeps = {
    db: ctx.stores.accounts.db,
    throttle: ctx.loginThrottle,
    slots: ctx.passwordCheckSlots,
    ttlSeconds: ctx.config.loginTokenTtlSeconds,
    now: ctx.now,
  };
  const routes = featureRoutes(app, { auth: 'bearer', tags: ['auth'] });
  routes.post(
    '/auth/login/credentials',
    {
      auth: 'none',
      operationId: 'login',
      summary: 'Log in with username and password',
      description:
        'Returns a short-lived access token. Wrong password and unknown user give the same 401. ' +
        'Failed logins are limited per username and per client address (429 with Retry-After). ' +
        'Password checks under way at once are bounded per client address (429) and in all ' +
        '(503); beyond them a login is refused at once with Retry-After.',
      body: LoginBody,
      response: { 200: LoginResponse },
      errors: [400, 401, 415, 429, 503],
    },
    (request) => login(deps, { ...request.body, address: addressKey(request.ip) }),
  );

  routes.get(
    '/api/v1/me',
    { operationId: 'getMe', summary: 'Who the token belongs to', response: { 200: MeResponse } },
    (request) => profileOf(deps.db, callerOf(request)),
  );
}
