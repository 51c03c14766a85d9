import { describe, expect, it } from 'vitest';
import { CATALOGUES, LOCALES, say } from './messages.js';

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
});
