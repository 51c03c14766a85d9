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

/**
 * A dossier's valuation as the original service gives it: sale value, gross and net rent today,
 * each with a monthly timeline over the last `limits.valuation.timelineMonths` months. A deal
 * type the data cannot support today is null (its timeline holds the months it can).
 */
export async function valueDossier(
  deps: PropertyValueDeps,
  caller: Caller,
  id: string,
): Promise<DossierValuationResponse> {
  const dossier = await visibleDossier(deps.db, caller, id);
  const today = isoDay(deps.now());
  return deps.market.read(async (db) => {
    const { countryCode } = dossier;
    const property = toPropertyToValue(countryCode, dossier.content.property);
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
      isValuationStale: false,
    };
  });
}
