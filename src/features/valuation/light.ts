import type { Caller } from '../../http/caller.js';
import { checkCountry, invalidField } from '../../http/field-errors.js';
import { isoDay } from '../../dates.js';
import { visibleDossier } from '../dossiers/dossiers.js';
import type { Dossier, DossierProperty } from '../dossiers/dossier.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { CountryCode } from '../../market/countries.js';
import {
  type ValuationOfDay,
  dossierProperty,
  requestedProperty,
  valueAtDates,
  type PropertyValueDeps,
} from './valuation.js';
import type { PropertyValueLightRequest } from './schemas.js';
import { PROPERTY_REQUIRED, refuseBothInBody } from './validate.js';

/**
 * The light valuation: one property (or a visible dossier) today, with the same model as the
 * full one; the answer is the Valuation itself, also as `valuations[0][0]` (schemas.ts
 * LightValuationResponse). Both `property` and `dossierId` are refused
 * (validate.ts refuseBothInBody, which the route also runs before the schema). The light
 * property's single `condition` is accepted and not used (the model uses no condition).
 */
export async function valuePropertyLight(
  deps: PropertyValueDeps,
  caller: Caller,
  request: PropertyValueLightRequest,
): Promise<ValuationOfDay & { valuations: ValuationOfDay[][] }> {
  const countryCode = checkCountry(request.countryCode);
  const today = isoDay(deps.now());
  refuseBothInBody(request);
  const dossier =
    request.dossierId === undefined
      ? undefined
      : await visibleDossier(deps.db, caller, request.dossierId);
  // Within the deadline of every request's market queries, as the full valuation.
  return deps.market.read((db, view) =>
    deps.costlyWork.queries('valuation', db, view, (db) =>
      valueLight(deps, db, request, countryCode, today, dossier),
    ),
  );
}

async function valueLight(
  deps: PropertyValueDeps,
  db: DuckDBConnection,
  request: PropertyValueLightRequest,
  countryCode: CountryCode,
  today: string,
  dossier: Dossier | undefined,
): Promise<ValuationOfDay & { valuations: ValuationOfDay[][] }> {
  let property;
  if (dossier) {
    property = dossierProperty(dossier, countryCode, '/dossierId');
  } else if (request.property) {
    // The light property is a dossier property but for its one-word `condition`, not used.
    const facts = Object.fromEntries(
      Object.entries(request.property).filter(([key]) => key !== 'condition'),
    ) as DossierProperty;
    property = await requestedProperty(db, countryCode, facts, '/property');
  } else {
    throw invalidField('/property', PROPERTY_REQUIRED);
  }
  const [valuation] = await valueAtDates(deps, db, property, request.dealType, [today]);
  if (!valuation) throw new Error('no valuation for one date');
  return { ...valuation, valuations: [[valuation]] };
}
