/**
 * Calendar days as the service writes them, `YYYY-MM-DD` in UTC, and the arithmetic on them.
 * Plain functions with no clock of their own: "today" is always passed in.
 */

/** `YYYY-MM-DD` of a moment, in UTC: the service's "today". */
export const isoDay = (moment: Date): string => moment.toISOString().slice(0, 10);

/** Months since year 0 of a `YYYY-MM…` date: `year * 12 + month - 1` (month 0 is January 0). */
export const monthIndex = (date: string): number =>
  Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

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
