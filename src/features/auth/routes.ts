import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../app-context.js';
import { errorResponses } from '../../http/schemas.js';
import { callerOf } from '../../http/auth.js';
import { login, profileOf, type LoginDeps } from './auth.js';
import { LoginBody, LoginResponse, MeResponse } from './schemas.js';

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps: LoginDeps = {
    db: ctx.stores.accounts.db,
    throttle: ctx.loginThrottle,
    slots: ctx.passwordCheckSlots,
    ttlSeconds: ctx.config.loginTokenTtlSeconds,
    now: ctx.now,
  };
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/auth/login/credentials',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['auth'],
        summary: 'Log in with username and password',
        description:
          'Returns a short-lived access token. Wrong password and unknown user give the same 401. ' +
          'Failed logins are limited per username and per client address (429 with Retry-After). ' +
          'Password checks under way at once are bounded per client address (429) and in all ' +
          '(503); beyond them a login is refused at once with Retry-After.',
        body: LoginBody,
        response: { 200: LoginResponse, ...errorResponses(400, 401, 415, 429, 503) },
      },
    },
    (request) => login(deps, { ...request.body, address: request.ip }),
  );

  r.get(
    '/api/v1/me',
    {
      config: { auth: 'bearer' },
      schema: {
        tags: ['auth'],
        summary: 'Who the token belongs to',
        response: { 200: MeResponse },
      },
    },
    (request) => profileOf(deps.db, callerOf(request)),
  );
}
