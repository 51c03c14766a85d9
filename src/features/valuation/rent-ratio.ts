import type { DuckDBConnection } from '@duckdb/node-api';
import { limits } from '../../limits.js';
import { netRentShare } from '../../market/queries/offers.js';
import { normalizePostcode, type CountryCode } from '../../market/countries.js';
import type { Valuation, ValueRange } from '../../valuation/types.js';

/** Where a net/gross rent ratio comes from: the postcode's region, the country, or the default. */
export type RatioSource = 'region' | 'country' | 'default';

export interface RentRatio {
  ratio: number;
  source: RatioSource;
}

/**
 * The share of a gross (warm) rent that is net (cold) rent: the median of `rent_net / rent_gross`
 * over the rent offers that state both, in the postcode's level-6 region when it has at least
 * `limits.valuation.rentRatioMinOffers` of them, else in the country, else
 * `limits.valuation.defaultNetRentRatio`. Offers whose net rent exceeds the gross are left out
 * (the two fields swapped at the source).
 */
export async function netRentRatio(
  db: DuckDBConnection,
  countryCode: CountryCode,
  postalCode: string | undefined,
): Promise<RentRatio> {
  const enough = ({ median, offers }: { median: number | null; offers: number }) =>
    offers >= limits.valuation.rentRatioMinOffers && median !== null ? median : undefined;
  if (postalCode !== undefined) {
    const region = enough(await netRentShare(db, countryCode, normalizePostcode(postalCode)));
    if (region !== undefined) return { ratio: region, source: 'region' };
  }
  const country = enough(await netRentShare(db, countryCode));
  if (country !== undefined) return { ratio: country, source: 'country' };
  return { ratio: limits.valuation.defaultNetRentRatio, source: 'default' };
}

/** The rent fields of the original service's Valuation; rents are whole currency units. */
export interface RentFields {
  rentGross: number;
  rentGrossRange: ValueRange;
  rentNet: number;
  rentNetRange: ValueRange;
}

const scaled = (range: ValueRange, ratio: number): ValueRange => ({
  lower: Math.round(range.lower * ratio),
  upper: Math.round(range.upper * ratio),
});

/** A rent valuation (`value` is the monthly gross rent) with its gross and net rents beside. */
export function withRents(valuation: Valuation, ratio: number): Valuation & RentFields {
  return {
    ...valuation,
    rentGross: valuation.value,
    rentGrossRange: valuation.valueRange,
    rentNet: Math.round(valuation.value * ratio),
    rentNetRange: scaled(valuation.valueRange, ratio),
  };
}
