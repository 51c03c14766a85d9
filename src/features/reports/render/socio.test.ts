import { describe, expect, it } from 'vitest';
import { say, type Locale, type MessageKey } from '../messages.js';
import { formatsFor } from './format.js';
import { shownUnit } from './socio.js';

const inLocale = (locale: Locale, region?: string) =>
  [
    (key: MessageKey, values?: Record<string, string | number>) => say(locale, key, values, region),
    formatsFor(locale, 'EUR', region),
  ] as const;

describe('shownUnit', () => {
  it('says an amount a year in any currency in the report’s language', () => {
    expect(shownUnit(...inLocale('de'), 'CHF per year')).toBe('CHF pro Jahr');
    expect(shownUnit(...inLocale('fr'), 'CHF per year')).toBe('CHF par an');
    // With the symbol the report's amounts are written with.
    expect(shownUnit(...inLocale('cs'), 'CZK per year')).toBe('Kč ročně');
    expect(shownUnit(...inLocale('nl'), 'EUR per year')).toBe('€ per jaar');
    expect(shownUnit(...inLocale('en'), 'EUR per year')).toBe('€ per year');
  });

  it('translates the catalogue’s units and prints others as imported', () => {
    expect(shownUnit(...inLocale('de'), 'persons')).toBe('Personen');
    expect(shownUnit(...inLocale('de'), 'CHF per month')).toBe('CHF per month');
    expect(shownUnit(...inLocale('de'), 'chf per year')).toBe('chf per year');
    expect(shownUnit(...inLocale('de'), null)).toBe('');
  });

  it('writes the number in a unit as the report writes numbers', () => {
    expect(shownUnit(...inLocale('en'), 'per 1,000 inhabitants')).toBe('per 1,000 inhabitants');
    expect(shownUnit(...inLocale('de', 'CH'), 'per 1,000 inhabitants')).toBe(
      `je ${formatsFor('de', 'CHF', 'CH').number(1000)} Einwohner`,
    );
    expect(shownUnit(...inLocale('de', 'CH'), 'per 1,000 inhabitants')).not.toContain('1.000');
  });
});
