import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/schemas.js';
import { findPois } from './pois.js';
import { PoisRequest, PoisResponse } from './schemas.js';

/** Points of interest read the market data only, when it has places; no context is needed yet. */
export function poiRoutes(app: FastifyInstance): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/api/v1/pois',
    {
      config: { auth: 'bearer-or-query' },
      schema: {
        tags: ['pois'],
        summary: 'Points of interest around a point',
        description:
          'Schools, shops, parks… within `radius` of `coordinates`, filtered by `category` and ' +
          '`subcategory`, nearest first, paged by `offset` and `limit`. The market data holds ' +
          'no places yet: until it does, every answer is `{"items": [], "totalItems": 0}` ' +
          '(an area without data), after the request is checked.',
        body: PoisRequest,
        response: { 200: PoisResponse, ...errorResponses(400, 413, 415) },
      },
    },
    (request) => findPois(request.body),
  );
}
