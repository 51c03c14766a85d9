import type { FastifyInstance } from 'fastify';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { callerOf } from '../../http/auth.js';
import { featureRoutes } from '../../http/routes.js';
import { limits } from '../../limits.js';
import { TrackerRequest, TrackerResponse, type ValidTrackerRequest } from './schemas.js';
import { trackDossier } from './tracker.js';
import { SIMILAR_AREA } from './trends.js';

export function trackerRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps = serviceDeps(ctx);
  featureRoutes(app, { auth: 'bearer-or-query', tags: ['property tracker'] }).post(
    '/api/v1/property_tracker',
    {
      operationId: 'getPropertyTracker',
      summary: 'Insights about a dossier',
      description:
        'Valuations of the dossier at `date` and today (its deal type) and their change; ' +
        'offers of its deal and property type published from `date` to today within `radius` ' +
        '(or, with `usePostalCode`, in its postcode), nearest first then newest, at most ' +
        `${String(limits.tracker.maxItems)} listed and all counted; building projects within ` +
        '`radius`, nearest first, same cap; two trends (mean price per m² of offers in the same ' +
        `area with a living area within ±${String(SIMILAR_AREA * 100)}% of the dossier’s) over the six months centered on ` +
        '`date` and the six months up to today. A dossier of another organization is a 404 like ' +
        'a missing one; `countryCode` other than the dossier’s, `date` after today or before ' +
        'the country’s first offer are 400. The token may be sent as `access_token` query ' +
        'parameter. When the data cannot support a valuation: `422 insufficient_data`.',
      body: TrackerRequest,
      response: { 200: TrackerResponse },
      errors: [400, 404, 413, 415, 422],
    },
    // The schema's defaults (radius, usePostalCode) are filled in by the validator.
    (request) => trackDossier(deps, callerOf(request), request.body as ValidTrackerRequest),
  );
}
