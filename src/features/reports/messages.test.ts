import { describe, expect, it } from 'vitest';
import { CATALOGUES, countedKey, LOCALES, say, type Locale } from './messages.js';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('report message catalogue', () => {
  const english = CATALOGUES.en;
  it.each(LOCALES)('%s has every text, with the same placeholders as English', (locale) => {
    const catalogue = CATALOGUES[locale];
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(catalogue)) {
      expect(text.trim(), `${locale} ${key}`).not.toBe('');
      expect(placeholders(text), `${locale} ${key}`).toEqual(
        placeholders(english[key as keyof typeof english]),
      );
    }
  });

  it('keeps a sign with what it belongs to: no plain space where a line could break', () => {
    for (const locale of LOCALES) {
      for (const [key, text] of Object.entries(CATALOGUES[locale])) {
        // A number and its per cent sign stay on one line.
        expect(text, `${locale} ${key}`).not.toMatch(/\d %/);
      }
    }
    // French sets a narrow no-break space before : ; ! ? and %, never a plain one.
    for (const [key, text] of Object.entries(CATALOGUES.fr)) {
      expect(text, `fr ${key}`).not.toMatch(/ [:;!?%]/);
    }
  });

  it('fills in placeholders', () => {
    expect(say('de', 'page', { page: 3, pages: 9 })).toBe('Seite 3 von 9');
  });

  it('writes ss for ß in German read in Switzerland, leaving filled-in values as given', () => {
    expect(say('de', 'scale')).toBe('Maßstab');
    expect(say('de', 'scale', {}, 'CH')).toBe('Massstab');
    expect(say('de', 'comparedWith', {}, 'CH')).toBe('Grösseres Gebiet');
    expect(say('de', 'preparedBy', { org: 'Haus & Straße AG' }, 'CH')).toBe(
      'Erstellt von Haus & Straße AG',
    );
    expect(say('de', 'scale', {}, 'AT')).toBe('Maßstab');
  });
});

describe('counted messages', () => {
  it('take the form each language’s plural rules give the count', () => {
    const found = (locale: Locale, count: number) =>
      say(locale, countedKey(locale, 'offersFound', count), {
        count: String(count),
        date: '1. 1. 2026',
      });
    expect(found('en', 1)).toBe('1 offer of the same kind found since 1. 1. 2026.');
    expect(found('en', 2)).toBe('2 offers of the same kind found since 1. 1. 2026.');
    expect(found('fr', 1)).toContain('1 offre du même type trouvée');
    expect(found('cs', 1)).toBe('Od 1. 1. 2026 nalezena 1 nabídka stejného druhu.');
    expect(found('cs', 3)).toBe('Od 1. 1. 2026 nalezeny 3 nabídky stejného druhu.');
    expect(found('cs', 5)).toBe('Od 1. 1. 2026 nalezeno 5 nabídek stejného druhu.');
    expect(found('sk', 2)).toBe('Od 1. 1. 2026 nájdené 2 ponuky rovnakého druhu.');
    expect(found('sk', 12)).toBe('Od 1. 1. 2026 nájdených 12 ponúk rovnakého druhu.');
    const pages = (locale: Locale, count: number) =>
      say(locale, countedKey(locale, 'attachedPages', count), { title: 'Plan', pages: count });
    expect(pages('en', 1)).toBe('Plan: 1 page follows.');
    expect(pages('de', 1)).toBe('Plan: 1 Seite folgt.');
    expect(pages('de', 4)).toBe('Plan: 4 Seiten folgen.');
    expect(pages('cs', 4)).toBe('Plan: následují 4 strany.');
  });
});
