import type { CountryCode } from '../../market/countries.js';
import type { OfferMetric } from '../../market/queries/offer-statistics.js';

/** Metrics only some countries have. */
export const METRIC_COUNTRIES: Partial<Record<OfferMetric, readonly CountryCode[]>> = {
  number_of_bedrooms: ['BE'],
};

/** Filters only some countries' offers carry. */
export const FILTER_COUNTRIES: { hasOpenKitchen: readonly CountryCode[] } = {
  hasOpenKitchen: ['CZ'],
};

/** "Only for BE." and the like: what the document says of a country-only field. */
export function onlyForText(countries: readonly CountryCode[]): string {
  return `Only for ${countries.join(', ')}.`;
}
