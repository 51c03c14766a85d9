import type { FastifyInstance } from 'fastify';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { callerOf } from '../../http/auth.js';
import { featureRoutes } from '../../http/routes.js';
import { findIndicators } from './places.js';
import { IndicatorsRequest, IndicatorsResponse } from './schemas.js';

export function placesRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps = serviceDeps(ctx);
  featureRoutes(app, { auth: 'bearer-or-query', tags: ['pois'] }).post(
    '/api/v1/indicators',
    {
      operationId: 'getIndicators',
      summary: 'Area indicators of a point or dossier',
      description:
        'The imported indicators (population, income, households…) of the divisions containing ' +
        '`coordinates` or the dossier’s point: the nearest postcode, its level-8 and its level-6 ' +
        'division. Each indicator comes from the finest of them that has it, with the level, ' +
        'division, year and source used, and beside it the next coarser division’s value where ' +
        'the data has both. Only imported values: an area without indicators answers ' +
        '`items: []`. A dossier of another organization is a 404 like a missing one.',
      body: IndicatorsRequest,
      response: { 200: IndicatorsResponse },
      errors: [400, 404, 413, 415],
    },
    (request) => findIndicators(deps, callerOf(request), request.body),
  );
}
