import { addMonths } from '../../dates.js';

/**
 * The date a report compares today with when the request names none: a year before today, so
 * that a report shows a year of comparable offers, the value's change over a year and a trend
 * from a year back, as a valuation report is read. (Today itself would compare the property
 * with itself and find no offers since.) A market whose data starts later is compared with its
 * first offer's day, which the tracker accepts.
 */
export function defaultReportDate(today: string, firstOffer: string | undefined): string {
  const yearBack = addMonths(today, -12);
  if (firstOffer === undefined || firstOffer <= yearBack) return yearBack;
  return firstOffer < today ? firstOffer : today;
}
