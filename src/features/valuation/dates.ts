import type { DuckDBConnection } from '@duckdb/node-api';
import { invalidField } from '../../http/field-errors.js';
import { queryPrepared } from '../../market/duck.js';
import type { CountryCode } from '../../market/countries.js';

/** `YYYY-MM-DD` of a moment, in UTC: the service's "today". */
export const isoDay = (moment: Date): string => moment.toISOString().slice(0, 10);

/** Adds calendar months, keeping the day but clamping it to the month's end (05-31 − 3 → 02-28/29). */
export function addMonths(day: string, months: number): string {
  const [y = 0, m = 1, d = 1] = day.split('-').map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return isoDay(new Date(Date.UTC(year, month, Math.min(d, lastDay))));
}

export function addDays(day: string, days: number): string {
  return isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));
}

/** The first offer date of a country's market data, if it has offers. */
export async function firstOfferDate(
  db: DuckDBConnection,
  countryCode: CountryCode,
): Promise<string | undefined> {
  const [row] = await queryPrepared(
    db,
    `select strftime(min(start_date), '%Y-%m-%d') as first from offers where country_code = $country`,
    { country: countryCode },
  );
  return typeof row?.first === 'string' ? row.first : undefined;
}

/**
 * A valuation date must be known market: not after today, not before the country's first
 * offer. `path` names the field in the 400.
 */
export function checkValuationDate(
  date: string,
  today: string,
  first: string | undefined,
  path: string,
): void {
  if (date > today) throw invalidField(path, `must not be after today (${today})`);
  if (first !== undefined && date < first) {
    throw invalidField(path, `must not be before the market data's first offer (${first})`);
  }
}
