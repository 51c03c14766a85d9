import type { Locale } from '../messages.js';

/** Numbers, money and dates written as the report's locale writes them (Intl, full ICU). */
export interface Formats {
  /** At most `digits` decimals, at least `minDigits` (a score: "3.0" beside "7.6"). */
  number: (value: number, digits?: number, minDigits?: number) => string;
  money: (value: number) => string;
  /** A price per m²: with cents below 100 (rents: 18.70 €), whole above (sales: 6,442 €). */
  perArea: (value: number) => string;
  percent: (value: number) => string;
  date: (day: string) => string;
  /** A date where a column is narrow: "10 Sept 2025", "10. 9. 2025". */
  shortDate: (day: string) => string;
  area: (value: number) => string;
  /** A distance, rounded up: metres below 1 km, km to one decimal above. */
  meters: (value: number) => string;
  /** A currency as the report writes its amounts: "€", "CHF", "Kč". */
  currencySymbol: (code: string) => string;
  /** A round distance, a search radius or a scale bar: "500 m", "1 km", "2.5 km". */
  roundDistance: (meters: number) => string;
}

// A region for each language, for the date and number conventions of its main market.
const TAGS: Record<Locale, string> = {
  en: 'en-GB',
  de: 'de-DE',
  fr: 'fr-FR',
  it: 'it-IT',
  nl: 'nl-NL',
  cs: 'cs-CZ',
  sk: 'sk-SK',
};

// The countries where a language is one of the country's own (English is nowhere: an English
// reader of a Swiss report reads British conventions).
const OWN: Partial<Record<Locale, readonly string[]>> = {
  de: ['AT', 'BE', 'CH', 'DE'],
  fr: ['BE', 'CH', 'FR'],
  it: ['CH'],
  nl: ['BE', 'NL'],
  cs: ['CZ'],
  sk: ['SK'],
};

/**
 * The Intl tag a report in `locale` writes with: `region`'s conventions where the language is
 * one of the region's own (Swiss francs with apostrophes, CHF 1'234'567; Austrian months,
 * Jänner; Belgian French and Dutch), else the language's main market's. `region` is the
 * reader's as the locale says it (`de_CH`), or the property's country.
 */
export function formatTag(locale: Locale, region?: string): string {
  return region && OWN[locale]?.includes(region) ? `${locale}-${region}` : TAGS[locale];
}

const NBSP = '\u00a0';

// Thousands are grouped from four digits on in every locale: Italian's own rule groups only
// from five (8927 € above 12.140 € in one column), which reads as two different conventions.
const GROUPING = { useGrouping: 'always' } as const;

export function formatsFor(locale: Locale, currency: string, region?: string): Formats {
  const tag = formatTag(locale, region);
  const money = new Intl.NumberFormat(tag, {
    ...GROUPING,
    style: 'currency',
    currency,
    maximumFractionDigits: 0,
  });
  const cents = new Intl.NumberFormat(tag, {
    ...GROUPING,
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const dates = new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' });
  const shortDates = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: 'UTC' });
  // A change to one decimal, always ("−2.0%" beside "+3.2%", not "−2%"): the tracker rounds
  // it so.
  const percent = new Intl.NumberFormat(tag, {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: 'exceptZero',
  });
  const numbers = new Map<string, Intl.NumberFormat>();
  const number = (value: number, digits = 0, minDigits = 0) => {
    const key = `${String(digits)}:${String(minDigits)}`;
    let format = numbers.get(key);
    if (!format) {
      format = new Intl.NumberFormat(tag, {
        ...GROUPING,
        maximumFractionDigits: digits,
        minimumFractionDigits: minDigits,
      });
      numbers.set(key, format);
    }
    return format.format(value);
  };
  return {
    number,
    money: (value) => money.format(value),
    perArea: (value) => (Math.abs(value) < 100 ? cents : money).format(value),
    percent: (value) => percent.format(value / 100),
    date: (day) => dates.format(new Date(`${day}T00:00:00Z`)),
    shortDate: (day) => shortDates.format(new Date(`${day}T00:00:00Z`)),
    // A no-break space between number and unit: a line never ends between them ("34 / m").
    area: (value) => `${number(value, 1)}${NBSP}m²`,
    meters: (value) => {
      // Rounded up (to the metre, from 1 km on to 100 m): a place beyond 1 km, which the
      // "within 1 km" counts leave out, never reads as "1 km" (1,040 m is 1.1 km).
      const whole = Math.ceil(value);
      return whole > 1000
        ? `${number(Math.ceil(whole / 100) / 10, 1)}${NBSP}km`
        : `${number(whole)}${NBSP}m`;
    },
    currencySymbol: (code) =>
      new Intl.NumberFormat(tag, { style: 'currency', currency: code })
        .formatToParts(0)
        .find((part) => part.type === 'currency')?.value ?? code,
    roundDistance: (meters) =>
      meters >= 1000 ? `${number(meters / 1000, 1)}${NBSP}km` : `${number(meters)}${NBSP}m`,
  };
}
