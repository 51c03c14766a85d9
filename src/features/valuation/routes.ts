import type { FastifyInstance } from 'fastify';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { callerOf } from '../../http/auth.js';
import { featureRoutes } from '../../http/routes.js';
import { limits } from '../../limits.js';
import { LOCATION_TEXT } from '../dossiers/schemas.js';
import { DossierParams } from '../dossiers/schemas.js';
import { DOSSIER_VALUATION_PAIRS, valueDossier } from './dossier-valuation.js';
import { valuePropertyLight } from './light.js';
import { valueProperties } from './valuation.js';
import { refuseBothInBody, refuseBothInInputs } from './validate.js';
import {
  dropEmptyCoordinatesOfBody,
  dropEmptyCoordinatesOfInputs,
} from '../dossiers/empty-coordinates.js';
import {
  DossierValuationRequest,
  DossierValuationResponse,
  PropertyValueLightRequest,
  PropertyValueRequest,
  PropertyValueResponse,
  LightValuationResponse,
} from './schemas.js';

export function valuationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps = serviceDeps(ctx);
  const routes = featureRoutes(app, { auth: 'bearer-or-query', tags: ['valuation'] });
  routes.post(
    '/api/v1/valuation/property_value',
    {
      operationId: 'valueProperties',
      summary: 'Value properties at dates',
      description:
        '`valuations[i][j]` values input `i` at date `j` (default: today) in `dealType`, with the ' +
        `same model as the property tracker. At most ${String(limits.valuation.maxPairs)} ` +
        'property-date pairs (each input × its dates), else 400. A `dossierId` must be a dossier of the ' +
        'caller’s organization (else 404, as for a missing one) in `countryCode` (else 400); ' +
        `a \`property\` is written as in a dossier: ${LOCATION_TEXT} An input may carry its ` +
        'own `valuationDates`; one naming neither a property nor a dossier values the ' +
        'request’s `dossierId`. Dates may not be before the country’s first offer nor more ' +
        `than ${String(limits.valuation.futureYears)} years after today; a date after today is ` +
        'valued as of today (the model does not forecast). When the data cannot support a ' +
        'valuation: `422 insufficient_data` for the whole call, whose `errors` name every ' +
        'input that failed (`path` `/valuationInputs/1`), each with the dates it could not be ' +
        'valued at in its message (a property type the model does not value: no date). The token may be sent as `access_token` query parameter.',
      body: PropertyValueRequest,
      check: (request) => {
        dropEmptyCoordinatesOfInputs(request.body);
        refuseBothInInputs(request.body);
      },
      response: { 200: PropertyValueResponse },
      errors: [400, 404, 413, 415, 422],
    },
    (request) => valueProperties(deps, callerOf(request), request.body),
  );

  routes.post(
    '/api/v1/valuation/property_value_light',
    {
      operationId: 'valuePropertyLight',
      summary: 'Value one property today (light)',
      description:
        'One `property` with fewer facts (or a `dossierId`, not both), valued today in ' +
        '`dealType` with the same model as the full valuation. The answer is the Valuation ' +
        'itself (`confidence`, `currency`, `valueRange` at the top, as the .NET client reads ' +
        'it) and the same Valuation as `valuations[0][0]` (the shape the original service ' +
        'answered in, as the PHP client reads it). Errors as for the full valuation.',
      body: PropertyValueLightRequest,
      check: (request) => {
        dropEmptyCoordinatesOfBody(request.body);
        refuseBothInBody(request.body);
      },
      response: { 200: LightValuationResponse },
      errors: [400, 404, 413, 415, 422],
    },
    (request) => valuePropertyLight(deps, callerOf(request), request.body),
  );

  routes.post(
    '/api/v1/dossiers/:id/valuation',
    {
      tags: ['valuation', 'dossiers'],
      operationId: 'valueDossier',
      summary: 'Value a dossier today and over the last months',
      description:
        'The dossier’s sale value, gross and net rent today, each with a monthly timeline ' +
        `over the last ${String(limits.valuation.timelineMonths)} months, whatever the ` +
        'dossier’s deal type. Another organization’s dossier is a 404, as a missing one. ' +
        '`isValuationStale` says whether the previous answer for the dossier has gone out of ' +
        `date (see its description). Costly work (${String(DOSSIER_VALUATION_PAIRS)} valuations): made in the ` +
        'organization’s turn (too many waiting → 429, no turn in time → 503).',
      params: DossierParams,
      body: DossierValuationRequest,
      response: { 200: DossierValuationResponse },
      errors: [400, 404, 413, 415, 422],
    },
    (request) => valueDossier(deps, callerOf(request), request.params.id),
  );
}
