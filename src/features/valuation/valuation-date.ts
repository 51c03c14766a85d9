import { invalidField } from '../../http/field-errors.js';

/**
 * A valuation date must be known market: not after today, not before the country's first
 * offer (`first`, when it has offers). `path` names the field in the 400.
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

/**
 * `YYYY-MM-DD`, optionally followed by an ISO 8601 time (00:00–23:59:60, a leap second, or
 * 24:00, the day's end) and zone (up to ±14:00): only the date part is used, but a time that is
 * no time (`T25:00`) is refused, not ignored.
 */
export const DAY_OR_DATE_TIME_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}(T(([01]\\d|2[0-3]):[0-5]\\d(:([0-5]\\d|60)(\\.\\d{1,9})?)?|24:00(:00)?)' +
  '(Z|[+-](0\\d|1[0-3]):?[0-5]\\d|[+-]14:?00)?)?$';

/**
 * The day of a date or date-time text (already matching `DAY_OR_DATE_TIME_PATTERN`): its date
 * part, which must be a day of the calendar (`2026-02-30` is a 400 naming `path`).
 */
export function dayOf(text: string, path: string): string {
  const day = text.slice(0, 10);
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
    throw invalidField(path, `${JSON.stringify(text)} is not a day of the calendar`);
  }
  return day;
}
