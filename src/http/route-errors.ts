import { isRateLimited } from './rate-limit.js';
import { isShedUnderLoad } from './overload.js';
import type { ErrorStatus } from './schemas.js';

/** Methods whose request bodies Fastify reads (GET and HEAD bodies are never parsed). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The error statuses a route can answer whatever it does, which the app adds to every route's
 * OpenAPI responses: 400 (an unknown query parameter, a malformed URL), 415 and 501 (a body
 * with a content or transfer coding the server does not undo: protocol-answers.ts), 413 on
 * methods whose bodies are read (a JSON body over the limit, even where the route ignores it, as
 * a DELETE does), 500, and where the request limit and load shedding apply, 429 and 503. A
 * route lists only its own beyond these.
 */
export function routeWideErrorStatuses(url: string, methods: readonly string[]): ErrorStatus[] {
  return [
    400,
    ...(methods.some((method) => BODY_METHODS.has(method.toUpperCase())) ? [413 as const] : []),
    415,
    ...(isRateLimited(url) ? [429 as const] : []),
    500,
    501,
    ...(isShedUnderLoad(url) ? [503 as const] : []),
  ];
}
