import { describe, expect, it } from 'vitest';
import { formatsFor } from './format.js';

describe('formatsFor', () => {
  it('keeps a number and its unit on one line (a no-break space between them)', () => {
    const f = formatsFor('de', 'EUR');
    expect(f.meters(34)).toBe('34\u00a0m');
    expect(f.meters(1250)).toBe('1,3\u00a0km');
    expect(f.area(72.5)).toBe('72,5\u00a0m²');
  });

  it('rounds distances up, so a place beyond a radius never reads as within it', () => {
    const f = formatsFor('en', 'EUR');
    expect([499.2, 500, 999.6, 1000, 1000.4, 1040, 1100, 1101, 12_345].map(f.meters)).toEqual(
      [
        '500 m',
        '500 m',
        '1,000 m',
        '1,000 m',
        '1.1 km',
        '1.1 km',
        '1.1 km',
        '1.2 km',
        '12.4 km',
      ].map((s) => s.replace(' ', '\u00a0')),
    );
  });

  it('writes a change with its sign and one decimal, a round one too', () => {
    const en = formatsFor('en', 'EUR');
    expect([3.2, -2, 0].map(en.percent)).toEqual(['+3.2%', '-2.0%', '0.0%']);
    expect(formatsFor('de', 'EUR').percent(-2)).toBe('-2,0\u00a0%');
  });

  it('writes a round distance as the round figure it is', () => {
    const nb = (s: string) => s.replace(' ', '\u00a0');
    expect([500, 1000, 2500, 5000].map(formatsFor('en', 'EUR').roundDistance)).toEqual(
      ['500 m', '1 km', '2.5 km', '5 km'].map(nb),
    );
    expect(formatsFor('de', 'EUR').roundDistance(2500)).toBe(nb('2,5 km'));
  });

  it('writes a price per m² with cents below 100 (rents), whole above (sales)', () => {
    const f = formatsFor('de', 'EUR');
    expect(f.perArea(18.7)).toBe('18,70\u00a0€');
    expect(f.perArea(6441.96)).toBe('6.442\u00a0€');
    expect(formatsFor('en', 'EUR').perArea(99.994)).toBe('€99.99');
    expect(formatsFor('cs', 'CZK').perArea(312.4)).toBe('312\u00a0Kč');
  });
});

describe('a report’s number and date conventions', () => {
  it('follow the country where the language is one of its own', () => {
    expect(formatsFor('de', 'CHF', 'CH').money(1234567)).toBe("CHF\u00a01'234'567");
    expect(formatsFor('fr', 'CHF', 'CH').number(1234.5, 1)).toBe('1\u202f234,5');
    expect(formatsFor('it', 'CHF', 'CH').money(1234567)).toBe("CHF\u00a01'234'567");
    expect(formatsFor('de', 'EUR', 'AT').date('2026-01-05')).toBe('5. Jänner 2026');
    expect(formatsFor('de', 'EUR', 'DE').date('2026-01-05')).toBe('5. Januar 2026');
  });

  it('are the language’s main market’s elsewhere, and British for English everywhere', () => {
    expect(formatsFor('de', 'CZK', 'CZ').money(1234567)).toBe(
      formatsFor('de', 'CZK').money(1234567),
    );
    expect(formatsFor('en', 'CHF', 'CH').money(1234567)).toBe('CHF\u00a01,234,567');
    expect(formatsFor('it', 'EUR', 'DE').number(1234.5, 1)).toBe('1.234,5');
  });

  it('group thousands from four digits on in every language (Italian groups from five)', () => {
    const it = formatsFor('it', 'EUR');
    expect([it.money(8927), it.money(12140)]).toEqual(['8.927\u00a0€', '12.140\u00a0€']);
    expect(it.perArea(5432.1)).toBe('5.432\u00a0€');
    expect(formatsFor('it', 'CHF', 'CH').number(8927)).toBe("8'927");
  });
});
