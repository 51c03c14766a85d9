import type { DEAL_TYPES } from '../schema.js';

type DealType = (typeof DEAL_TYPES)[number];

/**
 * Formulas over the offers table that several queries share, written once: the price of a deal
 * type, the month index the valuation model counts in, and prices per m².
 */

/** The price column of a deal type: sale price, or monthly gross rent. */
export const PRICE_COLUMN: Record<DealType, 'sale_price' | 'rent_gross'> = {
  sale: 'sale_price',
  rent: 'rent_gross',
};

/** The price of an offer row of either deal type, by its own `deal_type`. */
export function priceOfRowSql(alias?: string): string {
  const c = (column: string) => (alias ? `${alias}.${column}` : column);
  return `case ${c('deal_type')} when 'sale' then ${c('sale_price')} else ${c('rent_gross')} end`;
}
export const PRICE_OF_ROW_SQL = priceOfRowSql();

/** The month index of the start date, as `monthIndex` (src/dates.ts) computes it in code. */
export const MONTH_INDEX_SQL = '(year(start_date) * 12 + month(start_date) - 1)';

/** A price column per m² of living area; NULL where the offer has no living area above 0. */
export const perSquareMeterSql = (column: string): string =>
  `case when living_area > 0 then ${column} / living_area end`;
