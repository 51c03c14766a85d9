import type { CountryCode } from '../../market/countries.js';
import type { OfferMetric } from '../../market/queries/offer-statistics.js';

/** Metrics only some countries have. */
export const METRIC_COUNTRIES: Partial<Record<OfferMetric, readonly CountryCode[]>> = {
  number_of_bedrooms: ['BE'],
};
