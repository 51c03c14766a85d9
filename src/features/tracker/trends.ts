import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { queryPrepared } from '../../market/duck.js';
import { addDays, addMonths } from '../../dates.js';
import { offerConditions, PRICE_SQL, type OfferSearch } from './offers.js';
import { areaTable } from './area.js';
import type { Trend } from './schemas.js';

/** Living areas within this share of the dossier's count as similar (±25%). */
const SIMILAR_AREA = 0.25;

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

/** Mean price per m² of similar offers (same deal and property type, same area) in a period. */
export async function trendIn(
  db: DuckDBConnection,
  search: Omit<OfferSearch, 'from' | 'to' | 'limit'>,
  livingArea: number,
  period: Period,
): Promise<Trend> {
  const params: Record<string, DuckDBValue> = {
    areaMin: livingArea * (1 - SIMILAR_AREA),
    areaMax: livingArea * (1 + SIMILAR_AREA),
  };
  const where = offerConditions({ ...search, from: period.first, to: period.last }, params);
  const price = PRICE_SQL[search.dealType];
  const [row] = await queryPrepared(
    db,
    `select count(*)::integer as n, avg(${price} / living_area) as mean
     from ${areaTable(search.area)}
     where ${where.join(' and ')}
       and living_area between $areaMin and $areaMax and ${price} is not null`,
    params,
  );
  const count = Number(row?.n ?? 0);
  return {
    dateRange: { min: `${period.first}T00:00:00.000Z`, max: `${period.last}T23:59:59.999Z` },
    ...(count > 0 ? { value: Number(row?.mean) } : {}),
    count,
  };
}
