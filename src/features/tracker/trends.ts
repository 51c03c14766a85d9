import type { DuckDBConnection } from '@duckdb/node-api';
import { addDays, addMonths } from '../../dates.js';
import { meanPricePerSquareMeter, type OfferSearch } from '../../market/queries/offers.js';
import type { Trend } from './schemas.js';

/** Living areas within this share of the dossier's count as similar (±25%). */
export const SIMILAR_AREA = 0.25;

/** The living areas of offers similar to a dossier of `livingArea` (both ends included). */
export function similarAreas(livingArea: number): { min: number; max: number } {
  return { min: livingArea * (1 - SIMILAR_AREA), max: livingArea * (1 + SIMILAR_AREA) };
}

export interface Period {
  first: string;
  last: string;
}

/**
 * The two trend periods, six months each, both ends included: the one centered on `date`
 * (three months before it to the day before three months after it), and the one ending today.
 */
export function trendPeriods(date: string, today: string): [Period, Period] {
  return [
    { first: addMonths(date, -3), last: addDays(addMonths(date, 3), -1) },
    { first: addDays(addMonths(today, -6), 1), last: today },
  ];
}

/** Mean price per m² of similar offers (same deal and property type, same area) in each period. */
export async function trendsIn(
  db: DuckDBConnection,
  search: Omit<OfferSearch, 'from' | 'to'>,
  livingArea: number,
  periods: readonly Period[],
): Promise<Trend[]> {
  const found = await meanPricePerSquareMeter(
    db,
    search,
    similarAreas(livingArea),
    periods.map((period) => ({ from: period.first, to: period.last })),
  );
  return periods.map((period, i) => {
    const { count = 0, mean } = found[i] ?? {};
    return {
      dateRange: { min: `${period.first}T00:00:00.000Z`, max: `${period.last}T23:59:59.999Z` },
      ...(mean !== undefined ? { value: mean } : {}),
      count,
    };
  });
}
