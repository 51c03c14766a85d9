import type { CountryCode } from '../../market/countries.js';

export const METRICS = [
  'sale_price',
  'sale_price_per_square_meter',
  'rent_gross',
  'rent_gross_per_square_meter',
  'rent_net',
  'rent_net_per_square_meter',
  'living_area',
  'number_of_rooms',
  'days_on_market',
  'number_of_bedrooms',
] as const;
export type Metric = (typeof METRICS)[number];

export const STATISTIC_TYPES = ['mean', 'count', 'percentile', 'percentile_rank'] as const;
export type StatisticType = (typeof STATISTIC_TYPES)[number];

/**
 * Each metric as a SQL expression over the offers table; null where the offer has no value, so
 * that aggregates leave it out. Per-m² metrics need a living area above 0.
 */
export const METRIC_SQL: Record<Metric, string> = {
  sale_price: 'sale_price',
  sale_price_per_square_meter: 'case when living_area > 0 then sale_price / living_area end',
  rent_gross: 'rent_gross',
  rent_gross_per_square_meter: 'case when living_area > 0 then rent_gross / living_area end',
  rent_net: 'rent_net',
  rent_net_per_square_meter: 'case when living_area > 0 then rent_net / living_area end',
  living_area: 'living_area',
  number_of_rooms: 'number_of_rooms',
  days_on_market: 'days_on_market',
  number_of_bedrooms: 'number_of_bedrooms',
};

/** Metrics only some countries have. */
export const METRIC_COUNTRIES: Partial<Record<Metric, readonly CountryCode[]>> = {
  number_of_bedrooms: ['BE'],
};
