import type { FastifyInstance } from 'fastify';
import { limits } from '../../limits.js';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { featureRoutes } from '../../http/routes.js';
import { findPois } from './pois.js';
import { PoisRequest, PoisResponse, type ValidPoisRequest } from './schemas.js';

export function poiRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps = serviceDeps(ctx);
  featureRoutes(app, { auth: 'bearer-or-query', tags: ['pois'] }).post(
    '/api/v1/pois',
    {
      operationId: 'findPois',
      summary: 'Points of interest around a point',
      description:
        `Points of interest of the imported places data within \`radius\` (default ${String(limits.pois.defaultRadius)} m) of ` +
        '`coordinates`, nearest first, paged by `offset` and `limit`. `category` is a group ' +
        '(`health`, `education`, `leisure`, `catering`, `shopping`), `subcategory` a kind of ' +
        'place (`pharmacy`, `kindergarten`, … see README "Places data"); each filter given ' +
        'narrows the other, and names without data match nothing. An area without places ' +
        'data answers `{"items": [], "totalItems": 0}`: nothing is ever made up. A point ' +
        `outside \`countryCode\` (no postcode of it within ${String(limits.dossiers.countryReachKm)} km) is \`400\` on \`/coordinates\`, as ` +
        'for dossiers, valuations and indicators.',
      body: PoisRequest,
      response: { 200: PoisResponse },
      errors: [400, 413, 415],
    },
    // The schema's defaults (radius, offset, limit) are filled in by the validator.
    (request) => findPois(deps, request.body as ValidPoisRequest),
  );
}
