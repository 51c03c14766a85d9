import type { DuckDBConnection } from '@duckdb/node-api';
import type { ServiceDeps } from '../../app-context.js';
import { checkCountry, invalidField } from '../../http/field-errors.js';
import { isoDay } from '../../dates.js';
import { limits } from '../../limits.js';
import type { PropertyToValue, Valuation } from '../../valuation/types.js';
import type { Caller } from '../../http/caller.js';
import type { Dossier } from '../dossiers/dossier.js';
import { visibleDossier } from '../dossiers/dossiers.js';
import { resolveProperty } from '../dossiers/validate.js';
import { firstOfferDate } from '../../market/queries/offer-dates.js';
import { checkValuationDate } from './valuation-date.js';
import { toPropertyToValue } from './property-input.js';
import type { PropertyValueRequest } from './schemas.js';

export type PropertyValueDeps = Pick<
  ServiceDeps,
  'db' | 'market' | 'valueProperty' | 'now' | 'costlyWork'
>;

/**
 * Values each input (a property, or a visible dossier of the same country) at each date
 * (default today): `valuations[input][date]`. At most `limits.valuation.maxPairs` pairs.
 */
export async function valueProperties(
  deps: PropertyValueDeps,
  caller: Caller,
  request: PropertyValueRequest,
): Promise<{ valuations: Valuation[][] }> {
  const today = isoDay(deps.now());
  checkCountry(request.countryCode);
  const dates = request.valuationDates ?? [today];
  const pairs = dates.length * request.valuationInputs.length;
  if (pairs > limits.valuation.maxPairs) {
    throw invalidField(
      '/valuationInputs',
      `with ${String(dates.length)} dates makes ${String(pairs)} property-date pairs; at most ${String(limits.valuation.maxPairs)} are allowed`,
    );
  }
  // Dossiers first: a foreign one is a 404 before anything else is looked at.
  const dossiers: (Dossier | undefined)[] = [];
  for (const input of request.valuationInputs) {
    dossiers.push(
      'dossierId' in input ? await visibleDossier(deps.db, caller, input.dossierId) : undefined,
    );
  }
  // Many pairs are costly work: they take the organization's turn; every request has a deadline.
  const costly = pairs >= deps.costlyWork.options.valuationPairsCostly;
  return deps.costlyWork.run(caller.organizationId, costly, () =>
    deps.market.read((db, view) =>
      deps.costlyWork.queries('valuation', db, view, (db) =>
        valueAll(deps, db, request, dossiers, today),
      ),
    ),
  );
}

async function valueAll(
  deps: PropertyValueDeps,
  db: DuckDBConnection,
  request: PropertyValueRequest,
  dossiers: (Dossier | undefined)[],
  today: string,
): Promise<{ valuations: Valuation[][] }> {
  const countryCode = checkCountry(request.countryCode);
  const dates = request.valuationDates ?? [today];
  const first = await firstOfferDate(db, countryCode);
  dates.forEach((date, i) => {
    checkValuationDate(date, today, first, `/valuationDates/${String(i)}`);
  });
  const properties: PropertyToValue[] = [];
  for (const [i, input] of request.valuationInputs.entries()) {
    const dossier = dossiers[i];
    if (dossier) {
      if (dossier.countryCode !== countryCode) {
        throw invalidField(
          `/valuationInputs/${String(i)}/dossierId`,
          `is a dossier in ${dossier.countryCode}, not ${countryCode}`,
        );
      }
      properties.push(toPropertyToValue(countryCode, dossier.content.property));
    } else if ('property' in input) {
      const resolved = await resolveProperty(
        db,
        countryCode,
        input.property,
        `/valuationInputs/${String(i)}/property`,
      );
      properties.push(toPropertyToValue(countryCode, resolved));
    }
  }
  const valuations: Valuation[][] = [];
  for (const property of properties) {
    const row: Valuation[] = [];
    for (const date of dates) {
      row.push(await deps.valueProperty(db, { property, dealType: request.dealType, date }));
    }
    valuations.push(row);
  }
  return { valuations };
}
