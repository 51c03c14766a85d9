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
