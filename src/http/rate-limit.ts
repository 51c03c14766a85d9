import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { limits } from '../limits.js';
import { AppError } from './problem.js';
import { routedPath } from './routed-path.js';
import { addressKey } from './client-address.js';

const LIMITED_PREFIXES = ['/api/', '/auth/'];

/** Whether requests routed by `url` (`routedPath`) count against the per-user (or per-address)
 * request limit. */
export function isRateLimited(url: string): boolean {
  return (
    LIMITED_PREFIXES.some((prefix) => url.startsWith(prefix)) &&
    !url.startsWith('/api/v1/openapi.json')
  );
}

/**
 * Per-user request limit. It runs right after authentication (the route's own `onRequest` hook,
 * after the app's), so an authenticated request counts against its user, whatever token and
 * address it comes with: every login mints a new token, and a budget per token would start
 * afresh with each. It runs before the body is read and checked, so a request refused as
 * malformed counts like any other, and one over the limit costs no parsing. Requests without a
 * valid token never get this far (401), except on `auth: 'none'` routes such as login, which
 * count per client address.
 */
export async function registerRateLimit(app: FastifyInstance, perMinute: number): Promise<void> {
  if (perMinute === 0) return;
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    max: perMinute,
    timeWindow: limits.rateLimit.windowMs,
    // Budget headers only on the 429 itself: on every other answer they would make two
    // otherwise identical responses differ (a 404 for another organization's object must be
    // byte-identical to one for a missing object).
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    keyGenerator: (request: FastifyRequest) =>
      request.caller ? `user:${request.caller.userId}` : `address:${addressKey(request.ip)}`,
    allowList: (request: FastifyRequest) => !isRateLimited(routedPath(request)),
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new AppError(
        'rate_limited',
        `More than ${String(context.max)} requests per minute; retry in ${String(seconds)} s`,
        { headers: { 'retry-after': String(seconds) } },
      );
    },
  });
}
