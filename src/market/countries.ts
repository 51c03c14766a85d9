/** The markets the service covers, with the currency all their prices are in. */
export const COUNTRIES = ['AT', 'BE', 'CH', 'CZ', 'DE', 'FR', 'NL', 'SK'] as const;
export type CountryCode = (typeof COUNTRIES)[number];

export const MAIN_CURRENCY: Record<CountryCode, string> = {
  AT: 'EUR',
  BE: 'EUR',
  CH: 'CHF',
  CZ: 'CZK',
  DE: 'EUR',
  FR: 'EUR',
  NL: 'EUR',
  SK: 'EUR',
};

export function isCountryCode(value: string): value is CountryCode {
  return (COUNTRIES as readonly string[]).includes(value);
}

export const DIVISION_LEVELS = [6, 8, 100] as const;
export type DivisionLevel = (typeof DIVISION_LEVELS)[number];

/** Postcodes are compared without spaces and in upper case: `100 00` and `10000` are one code. */
export function normalizePostcode(postcode: string): string {
  return postcode.replaceAll(/\s+/g, '').toUpperCase();
}

/** A division id as the data stores it: a postcode (level 100) normalized, others as given. */
export function divisionIdOf(level: DivisionLevel, id: string): string {
  return level === 100 ? normalizePostcode(id) : id;
}
