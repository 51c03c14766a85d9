import { invalidField } from '../../http/field-errors.js';
import { limits } from '../../limits.js';

/**
 * A valuation date must be known market: not after `latest` (today, unless the caller allows
 * later dates: `latestValuationDate`), not before the country's first offer (`first`, when it
 * has offers). `path` names the field in the 400.
 */
export function checkValuationDate(
  date: string,
  latest: LatestDay,
  first: string | undefined,
  path: string,
): void {
  if (date > latest.day) throw invalidField(path, `${latest.refusal} (${latest.day})`);
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

/** The latest day a date may be, and what a later one is told. */
export interface LatestDay {
  day: string;
  refusal: string;
}

/** Today, as the latest day a tracker's `date` may be. */
export const todayAsLatest = (today: string): LatestDay => ({
  day: today,
  refusal: 'must not be after today',
});

/**
 * The latest day a property valuation may be asked for: `limits.valuation.futureYears` after
 * today (29 February falls back to the 28th). Such a date is valued at today's market.
 */
export function latestValuationDate(today: string): LatestDay {
  const years = limits.valuation.futureYears;
  const day = `${String(Number(today.slice(0, 4)) + years)}${today.slice(4)}`;
  return {
    day: day.endsWith('-02-29') ? `${day.slice(0, 8)}28` : day,
    refusal: `must not be more than ${String(years)} years after today`,
  };
}
