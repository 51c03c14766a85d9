import type { CountryCode } from '../countries.js';

/**
 * Ranges the demo data's median asking price per m² of sale offers since 2025 must fall in, per
 * country, in its main currency: roughly the national medians of 2025 listings, widened. The
 * generator's test holds it to them; the README lists them.
 */
export const PLAUSIBLE_SALE_PRICE_PER_M2: Record<CountryCode, [number, number]> = {
  AT: [3000, 7000],
  BE: [2200, 4500],
  CH: [6500, 14_000],
  CZ: [55_000, 130_000],
  DE: [2800, 6500],
  FR: [2400, 8000],
  NL: [3500, 7000],
  SK: [2000, 4500],
};
