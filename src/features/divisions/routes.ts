import type { FastifyInstance } from 'fastify';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { featureRoutes } from '../../http/routes.js';
import { getDivision, listDivisions } from './divisions.js';
import { Division, DivisionList, DivisionParams, DivisionQuery } from './schemas.js';

export function divisionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const routes = featureRoutes(app, { auth: 'bearer', tags: ['divisions'] });
  const deps = serviceDeps(ctx);
  routes.get(
    '/api/v1/administrative_divisions',
    {
      operationId: 'findDivisions',
      summary: 'Find administrative divisions',
      description:
        'Divisions of levels 6, 8 and 100 (postcodes), the same for every organization. Filters ' +
        'combine: `q` matches part of the name or the start of the id; `latitude`+`longitude` ' +
        'return the divisions containing the postcode nearest to the point. Ordered by country, ' +
        'level, name.',
      querystring: DivisionQuery,
      response: { 200: DivisionList },
      errors: [400],
    },
    (request) => listDivisions(deps, request.query),
  );
  routes.get(
    '/api/v1/administrative_divisions/:countryCode/:level/:id',
    {
      operationId: 'getDivision',
      summary: 'One administrative division',
      params: DivisionParams,
      response: { 200: Division },
      errors: [400, 404],
    },
    (request) => getDivision(deps, request.params),
  );
}
