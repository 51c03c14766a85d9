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

/** `YYYY-MM-DD`, optionally followed by an ISO 8601 time and zone. */
export const DAY_OR_DATE_TIME_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$';

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
