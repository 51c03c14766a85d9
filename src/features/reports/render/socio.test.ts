import { describe, expect, it } from 'vitest';
import { say, type Locale, type MessageKey } from '../messages.js';
import { shownUnit } from './socio.js';

const inLocale = (locale: Locale) => (key: MessageKey, values?: Record<string, string | number>) =>
  say(locale, key, values);

describe('shownUnit', () => {
  it('says an amount a year in any currency in the report’s language', () => {
    expect(shownUnit(inLocale('de'), 'CHF per year')).toBe('CHF pro Jahr');
    expect(shownUnit(inLocale('fr'), 'CHF per year')).toBe('CHF par an');
    expect(shownUnit(inLocale('cs'), 'CZK per year')).toBe('CZK ročně');
    expect(shownUnit(inLocale('nl'), 'EUR per year')).toBe('EUR per jaar');
  });

  it('translates the catalogue’s units and prints others as imported', () => {
    expect(shownUnit(inLocale('de'), 'persons')).toBe('Personen');
    expect(shownUnit(inLocale('de'), 'CHF per month')).toBe('CHF per month');
    expect(shownUnit(inLocale('de'), 'chf per year')).toBe('chf per year');
    expect(shownUnit(inLocale('de'), null)).toBe('');
  });
});
