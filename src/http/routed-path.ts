import type { FastifyRequest } from 'fastify';

/**
 * The path a request was routed by: its route's pattern (`/api/v1/dossiers/:id`), however the
 * client spelled it — in absolute form (`GET http://host/api/…`, which HTTP/1.1 servers must
 * accept) or with percent-encoded letters (`/%61pi/…`), both of which the router resolves as the
 * plain path. Every decision by path (the request limit, private answers, load shedding) takes
 * this, so that no spelling escapes it. A request no route took keeps its own path.
 */
export function routedPath(request: FastifyRequest): string {
  return request.routeOptions.url ?? request.url.split('?')[0] ?? '/';
}
