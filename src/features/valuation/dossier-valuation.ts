import { createHash } from 'node:crypto';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Caller } from '../../http/caller.js';
import { addMonths, isoDay } from '../../dates.js';
import { limits } from '../../limits.js';
import { firstOfferDate } from '../../market/queries/offer-dates.js';
import { InsufficientDataError } from '../../valuation/errors.js';
import type { DealType, PropertyToValue, Valuation } from '../../valuation/types.js';
import { visibleDossier } from '../dossiers/dossiers.js';
import type { PropertyValueDeps } from './valuation.js';
import { toPropertyToValue } from './property-input.js';
import { netRentRatio, withRents } from './rent-ratio.js';
import type { DatedValuation, DossierValuationResponse } from './schemas.js';
import { lastValuationBasis, recordValuationBasis, type ValuationBasis } from './store.js';

/** The first day of each of the last `months` months up to today's month, oldest first. */
export function monthlyDates(today: string, months: number): string[] {
  const first = `${today.slice(0, 8)}01`;
  return Array.from({ length: months }, (_, i) => addMonths(first, i - months + 1));
}

const dated = (
  valuation: Valuation,
  date: string,
  value: number,
  range = valuation.valueRange,
) => ({
  value,
  valueRange: range,
  valuationDate: date,
  confidence: valuation.confidence,
  valuationConfidence: valuation.confidence,
  currency: valuation.currency,
});

/** The valuation at each date, or undefined where the market data cannot support one. */
async function valueEach(
  deps: Pick<PropertyValueDeps, 'valueProperty'>,
  db: DuckDBConnection,
  property: PropertyToValue,
  dealType: DealType,
  dates: string[],
): Promise<(Valuation | undefined)[]> {
  const out: (Valuation | undefined)[] = [];
  for (const date of dates) {
    try {
      out.push(await deps.valueProperty(db, { property, dealType, date }));
    } catch (error) {
      if (!(error instanceof InsufficientDataError)) throw error;
      out.push(undefined);
    }
  }
  return out;
}

/** A fingerprint of the facts the model values: equal exactly when the model gets the same. */
export function propertyHash(property: PropertyToValue): string {
  const sorted = Object.fromEntries(
    Object.entries(property).sort(([a], [b]) => a.localeCompare(b)),
  );
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

/** Valuations one dossier valuation makes at most: two deal types, the timeline and today. */
export const DOSSIER_VALUATION_PAIRS = 2 * (limits.valuation.timelineMonths + 1);

/**
 * Whether the dossier's previous valuation is out of date next to this one: the facts the model
 * values changed since (a new title or description does not count), or the market data was
 * replaced by another snapshot. A dossier never valued has nothing out of date.
 */
export function isStale(previous: ValuationBasis | undefined, now: ValuationBasis): boolean {
  return (
    previous !== undefined &&
    (previous.propertyHash !== now.propertyHash || previous.snapshot !== now.snapshot)
  );
}

/**
 * A dossier's valuation as the original service gives it: sale value, gross and net rent today,
 * each with a monthly timeline over the last `limits.valuation.timelineMonths` months. A deal
 * type the data cannot support today is null (its timeline holds the months it can). It is
 * costly work (`DOSSIER_VALUATION_PAIRS` valuations), run in the organization's turn. What it
 * rests on is kept, so that the next valuation can say whether this one went out of date
 * (`isValuationStale`).
 */
export async function valueDossier(
  deps: PropertyValueDeps,
  caller: Caller,
  id: string,
): Promise<DossierValuationResponse> {
  const dossier = await visibleDossier(deps.db, caller, id);
  const now = deps.now();
  const today = isoDay(now);
  const costly = DOSSIER_VALUATION_PAIRS >= deps.costlyWork.options.valuationPairsCostly;
  const { answer, basis } = await deps.costlyWork.run(caller.organizationId, costly, () =>
    deps.market.read((db, view) =>
      deps.costlyWork.queries('valuation', db, view, async (db) => {
        const property = toPropertyToValue(dossier.countryCode, dossier.content.property);
        const basis = { propertyHash: propertyHash(property), snapshot: path.basename(view.file) };
        return { answer: await valueTimelines(deps, db, property, today), basis };
      }),
    ),
  );
  const previous = await lastValuationBasis(deps.db, caller, dossier.id);
  // Its row names the organization (a key PostgreSQL checks against the organization's row):
  // one of the organization's transactions that may wait for that row.
  await deps.organizationTurns.run(caller.organizationId, () =>
    recordValuationBasis(deps.db, caller, dossier.id, basis, now.toISOString()),
  );
  return { ...answer, isValuationStale: isStale(previous, basis) };
}

/** Sale, gross and net rent today and on the first of each month of the timeline. */
async function valueTimelines(
  deps: Pick<PropertyValueDeps, 'valueProperty'>,
  db: DuckDBConnection,
  property: PropertyToValue,
  today: string,
): Promise<Omit<DossierValuationResponse, 'isValuationStale'>> {
  const { countryCode } = property;
  const first = await firstOfferDate(db, countryCode);
  const months = monthlyDates(today, limits.valuation.timelineMonths).filter(
    (d) => first === undefined || d >= first,
  );
  const dates = [...months, today];
  const sale = await valueEach(deps, db, property, 'sale', dates);
  const rent = await valueEach(deps, db, property, 'rent', dates);
  const { ratio } = await netRentRatio(db, countryCode, property.postalCode);
  // `dates` is the months, then today: the timeline, then the current valuation.
  const pick = (
    list: (Valuation | undefined)[],
    shape: (v: Valuation, date: string) => DatedValuation,
  ) => {
    const now = list[months.length];
    return {
      current: now ? shape(now, today) : null,
      timeline: months.flatMap((date, i) => {
        const v = list[i];
        return v ? [shape(v, date)] : [];
      }),
    };
  };
  const s = pick(sale, (v, d) => dated(v, d, v.value));
  const g = pick(rent, (v, d) => dated(v, d, v.value));
  const n = pick(rent, (v, d) => {
    const r = withRents(v, ratio);
    return dated(v, d, r.rentNet, r.rentNetRange);
  });
  return {
    valuationSale: s.current,
    valuationSaleTimeline: s.timeline,
    valuationRentGross: g.current,
    valuationRentGrossTimeline: g.timeline,
    valuationRentNet: n.current,
    valuationRentNetTimeline: n.timeline,
  };
}
