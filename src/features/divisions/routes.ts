import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { errorResponses } from '../../http/schemas.js';
import { getDivision, listDivisions } from './divisions.js';
import { Division, DivisionList, DivisionParams, DivisionQuery } from './schemas.js';

export function divisionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const deps = serviceDeps(ctx);
  r.get(
    '/api/v1/administrative_divisions',
    {
      config: { auth: 'bearer' },
      schema: {
        tags: ['divisions'],
        summary: 'Find administrative divisions',
        description:
          'Divisions of levels 6, 8 and 100 (postcodes), the same for every organization. Filters ' +
          'combine: `q` matches part of the name or the start of the id; `latitude`+`longitude` ' +
          'return the divisions containing the postcode nearest to the point. Ordered by country, ' +
          'level, name.',
        querystring: DivisionQuery,
        response: { 200: DivisionList, ...errorResponses(400) },
      },
    },
    (request) => listDivisions(deps, request.query),
  );
  r.get(
    '/api/v1/administrative_divisions/:countryCode/:level/:id',
    {
      config: { auth: 'bearer' },
      schema: {
        tags: ['divisions'],
        summary: 'One administrative division',
        params: DivisionParams,
        response: { 200: Division, ...errorResponses(400, 404) },
      },
    },
    (request) => getDivision(deps, request.params),
  );
}
