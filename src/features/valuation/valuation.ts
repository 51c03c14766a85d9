import type { DuckDBConnection } from '@duckdb/node-api';
import type { ServiceDeps } from '../../app-context.js';
import { checkCountry, invalidField, throwFieldErrors } from '../../http/field-errors.js';
import { isoDay } from '../../dates.js';
import { limits } from '../../limits.js';
import type { CountryCode } from '../../market/countries.js';
import { InsufficientDataError } from '../../valuation/errors.js';
import { CONFIDENCES } from '../../valuation/types.js';
import type { Confidence, DealType, PropertyToValue, Valuation } from '../../valuation/types.js';
import type { Caller } from '../../http/caller.js';
import type { Dossier } from '../dossiers/dossier.js';
import { visibleDossier } from '../dossiers/dossiers.js';
import { resolveProperty } from '../dossiers/validate.js';
import { firstOfferDate } from '../../market/queries/offer-dates.js';
import { checkValuationDate, dayOf, latestValuationDate } from './valuation-date.js';
import { toPropertyToValue } from './property-input.js';
import { netRentRatio, withRents } from './rent-ratio.js';
import type { PropertyValueRequest } from './schemas.js';
import { checkInput } from './validate.js';
import { scoreLocation, type LocationScores } from '../../market/places/scores.js';

export type PropertyValueDeps = Pick<
  ServiceDeps,
  'db' | 'market' | 'valueProperty' | 'now' | 'costlyWork' | 'organizationTurns'
>;

/** A valuation with the day it is as of and its confidence under the .NET client's names. */
export type ValuationOfDay = Valuation & { valuationDate: string; valuationConfidence: Confidence };

/**
 * Values a property at each date; rent valuations carry their gross and net rents (the net by
 * the ratio measured where the property is, rent-ratio.ts). A date the data cannot support is
 * its refusal, naming the date, in the valuation's place.
 */
export async function valueEachDate(
  deps: Pick<PropertyValueDeps, 'valueProperty'>,
  db: DuckDBConnection,
  property: PropertyToValue,
  dealType: DealType,
  dates: readonly string[],
): Promise<(ValuationOfDay | InsufficientDataError)[]> {
  const ratio =
    dealType === 'rent'
      ? (await netRentRatio(db, property.countryCode, property.postalCode)).ratio
      : undefined;
  const row: (ValuationOfDay | InsufficientDataError)[] = [];
  for (const date of dates) {
    let valuation: Valuation;
    try {
      valuation = await deps.valueProperty(db, { property, dealType, date });
    } catch (error) {
      if (!(error instanceof InsufficientDataError)) throw error;
      row.push(error.date === undefined ? new InsufficientDataError(error.message, date) : error);
      continue;
    }
    row.push({
      ...(ratio === undefined ? valuation : withRents(valuation, ratio)),
      valuationDate: date,
      valuationConfidence: valuation.confidence,
    });
  }
  return row;
}

/** Values a property at each date, or throws the refusal of the first the data cannot support. */
export async function valueAtDates(
  deps: Pick<PropertyValueDeps, 'valueProperty'>,
  db: DuckDBConnection,
  property: PropertyToValue,
  dealType: DealType,
  dates: readonly string[],
): Promise<ValuationOfDay[]> {
  const row = await valueEachDate(deps, db, property, dealType, dates);
  const refused = row.find((entry) => entry instanceof InsufficientDataError);
  if (refused) throw refused;
  return row as ValuationOfDay[];
}

/** The full valuation's answer: `valuations[input][date]` and the least confidence among them. */
export type PropertyValuations = {
  valuations: (ValuationOfDay & { scores?: LocationScores })[][];
  confidence: Confidence;
};

/** The least confidence among valuations (`good` for none: there is nothing to be unsure of). */
export function leastConfidence(valuations: readonly { confidence: Confidence }[]): Confidence {
  const ranks = valuations.map((valuation) => CONFIDENCES.indexOf(valuation.confidence));
  return CONFIDENCES[Math.min(CONFIDENCES.length - 1, ...ranks)] ?? 'poor';
}

/** A property given in a request, its location resolved, as the model takes it. */
export async function requestedProperty(
  db: DuckDBConnection,
  countryCode: CountryCode,
  property: Parameters<typeof resolveProperty>[2],
  path: string,
): Promise<PropertyToValue> {
  return toPropertyToValue(countryCode, await resolveProperty(db, countryCode, property, path));
}

/** The dossier's property, when the dossier is of the request's country (else a 400 at `path`). */
export function dossierProperty(
  dossier: Dossier,
  countryCode: CountryCode,
  path: string,
): PropertyToValue {
  if (dossier.countryCode !== countryCode) {
    throw invalidField(path, `is a dossier in ${dossier.countryCode}, not ${countryCode}`);
  }
  return toPropertyToValue(countryCode, dossier.content.property);
}

/**
 * Values each input (a property, or a visible dossier of the same country) at each of its dates
 * (its own `valuationDates`, else the request's, else today): `valuations[input][date]`. At
 * most `limits.valuation.maxPairs` pairs. An input naming neither a property nor a dossier
 * values the request's `dossierId`. A date after today (up to `limits.valuation.futureYears`) is
 * valued as of today: the model does not forecast.
 */
export async function valueProperties(
  deps: PropertyValueDeps,
  caller: Caller,
  request: PropertyValueRequest,
): Promise<PropertyValuations> {
  const today = isoDay(deps.now());
  const countryCode = checkCountry(request.countryCode);
  const inputs = request.valuationInputs.map((input, i) =>
    checkInput(input, `/valuationInputs/${String(i)}`, request.dossierId),
  );
  const datesAt = (texts: readonly string[], base: string) =>
    texts.map((text, j) => ({
      day: dayOf(text, `${base}/${String(j)}`),
      path: `${base}/${String(j)}`,
    }));
  // The request's dates are checked even where every input brings its own.
  const requestDates = datesAt(request.valuationDates ?? [today], '/valuationDates');
  const dates = request.valuationInputs.map((input, i) =>
    input.valuationDates === undefined
      ? requestDates
      : datesAt(input.valuationDates, `/valuationInputs/${String(i)}/valuationDates`),
  );
  const pairs = dates.reduce((sum, row) => sum + row.length, 0);
  if (pairs > limits.valuation.maxPairs) {
    throw invalidField(
      '/valuationInputs',
      `with their dates make ${String(pairs)} property-date pairs; at most ${String(limits.valuation.maxPairs)} are allowed`,
    );
  }
  // Dossiers first: a foreign one is a 404 before anything else is looked at.
  const dossiers: (Dossier | undefined)[] = [];
  for (const input of inputs) {
    dossiers.push(
      'dossierId' in input ? await visibleDossier(deps.db, caller, input.dossierId) : undefined,
    );
  }
  // The properties, in a cheap read of their own before any turn is waited for: one outside the
  // country or with a stated postcode far from its point is a 400 at once, not after queueing
  // (where it had taken one of the organization's waiting places, and been a 429 beyond them).
  const properties = await deps.market.read((db, view) =>
    deps.costlyWork.queries('valuation', db, view, (db) =>
      propertiesOf(db, countryCode, inputs, dossiers),
    ),
  );
  // Many pairs are costly work: they take the organization's turn; every request has a deadline.
  const costly = pairs >= deps.costlyWork.options.valuationPairsCostly;
  return deps.costlyWork.run(caller.organizationId, costly, () =>
    deps.market.read((db, view) =>
      deps.costlyWork.queries('valuation', db, view, (db) =>
        valueAll(deps, db, {
          countryCode,
          dealType: request.dealType,
          properties,
          requestDates,
          dates,
          today,
          scores: request.returnScores === true,
        }),
      ),
    ),
  );
}

/** Each input's property: a dossier's of the same country, or the one given, placed and
 * checked (`resolveProperty`); one the data cannot value at all (a kind no offer is of) is
 * its refusal instead, for the answer to name with the others'. */
async function propertiesOf(
  db: DuckDBConnection,
  countryCode: CountryCode,
  inputs: ReturnType<typeof checkInput>[],
  dossiers: (Dossier | undefined)[],
): Promise<(PropertyToValue | InsufficientDataError)[]> {
  const properties: (PropertyToValue | InsufficientDataError)[] = [];
  for (const [i, input] of inputs.entries()) {
    const path = `/valuationInputs/${String(i)}`;
    const dossier = dossiers[i];
    try {
      properties.push(
        dossier && 'dossierPath' in input
          ? dossierProperty(dossier, countryCode, input.dossierPath)
          : await requestedProperty(
              db,
              countryCode,
              (input as { property: Parameters<typeof resolveProperty>[2] }).property,
              `${path}/property`,
            ),
      );
    } catch (error) {
      if (!(error instanceof InsufficientDataError)) throw error;
      properties.push(error);
    }
  }
  return properties;
}

/**
 * The whole call fails when an input cannot be valued (no per-input outcome), but the refusal
 * names every input that failed and the dates it failed at, so that a client leaves them all
 * out of a batch in one go.
 */
function refuseInputs(refusals: ReadonlyMap<number, readonly InsufficientDataError[]>): void {
  const errors = [...refusals].flatMap(([input, refused]) => {
    const path = `/valuationInputs/${String(input)}`;
    // One error per reason, naming the dates it applies to.
    const datesByMessage = new Map<string, string[]>();
    for (const error of refused) {
      const dates = datesByMessage.get(error.message) ?? [];
      if (error.date !== undefined) dates.push(error.date);
      datesByMessage.set(error.message, dates);
    }
    return [...datesByMessage].map(([message, dates]) => {
      const at = dates.length === 0 ? '' : ` at ${dates.join(', ')}`;
      return { path, message: `cannot be valued${at}: ${message}` };
    });
  });
  // Each error names one input and one reason for one or more of its property-date pairs:
  // at most as many as pairs, all listed.
  throwFieldErrors(errors, { code: 'insufficient_data', most: limits.valuation.maxPairs });
}

/** The valuations of checked properties at checked dates, on one snapshot. */
async function valueAll(
  deps: PropertyValueDeps,
  db: DuckDBConnection,
  job: {
    countryCode: CountryCode;
    dealType: DealType;
    properties: (PropertyToValue | InsufficientDataError)[];
    /** The request's dates, and each input's, with the field each came from (for a refusal). */
    requestDates: { day: string; path: string }[];
    dates: { day: string; path: string }[][];
    today: string;
    /** Whether each valuation carries the location scores of its property. */
    scores: boolean;
  },
): Promise<PropertyValuations> {
  const { countryCode, today } = job;
  const first = await firstOfferDate(db, countryCode);
  const latest = latestValuationDate(today);
  for (const row of [job.requestDates, ...job.dates]) {
    for (const date of row) checkValuationDate(date.day, latest, first, date.path);
  }
  const valuations: (ValuationOfDay & { scores?: LocationScores })[][] = [];
  /** Each input that failed, with its refusals. */
  const refusals = new Map<number, InsufficientDataError[]>();
  for (const [i, property] of job.properties.entries()) {
    if (property instanceof InsufficientDataError) {
      refusals.set(i, [property]);
      continue;
    }
    // A later date is valued as of today (the model does not forecast).
    const days = [...new Set((job.dates[i] ?? []).map((d) => (d.day > today ? today : d.day)))];
    const valued = new Map<string, ValuationOfDay>();
    const row = await valueEachDate(deps, db, property, job.dealType, days);
    const refused = row.filter((entry) => entry instanceof InsufficientDataError);
    if (refused.length > 0) {
      refusals.set(i, refused);
      continue;
    }
    for (const [j, entry] of row.entries()) valued.set(days[j] ?? '', entry as ValuationOfDay);
    const scores = job.scores ? await scoreLocation(db, countryCode, property) : undefined;
    valuations.push(
      (job.dates[i] ?? []).map((d) => {
        const valuation = valued.get(d.day > today ? today : d.day) as ValuationOfDay;
        return scores ? { ...valuation, scores } : valuation;
      }),
    );
  }
  refuseInputs(refusals);
  return { valuations, confidence: leastConfidence(valuations.flat()) };
}
