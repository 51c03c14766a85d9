import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routedPath } from './routed-path.js';

/** Answers that hold credentials or a caller's data: never kept by a browser or a proxy. */
function isPrivate(request: FastifyRequest): boolean {
  return request.caller !== null || routedPath(request).startsWith('/auth/');
}

/**
 * Headers every answer carries: `nosniff`, so a browser never runs a JSON or PDF body as
 * something else, and `Cache-Control: no-store` on the login answer (it holds a token) and on
 * every answer to an authenticated request, unless the route chose its own.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    if (isPrivate(request) && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}
