import { describe, expect, it } from 'vitest';
import { drawable, newDocument } from './page.js';
import { printableText } from './printable.js';

/** Stands in for the typefaces: Latin-1 only. */
const latin1 = (codePoint: number) => codePoint <= 0xff;

describe('printableText', () => {
  it('leaves out what the typefaces cannot draw, and the spaces that leaves doubled', () => {
    expect(printableText('Blick über Wien 🏠✨', latin1)).toBe('Blick über Wien');
    expect(printableText('Dach 🏠 Terrasse', latin1)).toBe('Dach Terrasse');
    expect(printableText('東京 Tokyo', latin1)).toBe('Tokyo');
    // An emoji sequence goes whole: its joiners and presentation selectors too.
    expect(printableText('Stadt 🏙️ 👩‍👩‍👧 Park', () => true)).toBe('Stadt 🏙 👩👩👧 Park');
    expect(printableText('Stadt 🏙️ 👩‍👩‍👧 Park', latin1)).toBe('Stadt Park');
  });

  it('keeps a text it can print as it is, its line breaks and spacing too', () => {
    expect(printableText('Graben  12\nWien ', latin1)).toBe('Graben  12\nWien ');
  });

  it('knows what the report typefaces draw', () => {
    newDocument('t', 'o');
    for (const char of ['ř', 'ß', 'œ', '€', '²', '\u202f', '–']) {
      expect(drawable(char.codePointAt(0) ?? 0), char).toBe(true);
    }
    for (const char of ['🏠', '✨', '東']) {
      expect(drawable(char.codePointAt(0) ?? 0), char).toBe(false);
    }
  });
});
