import { describe, expect, it } from 'vitest';
import { formatsFor } from './format.js';

describe('formatsFor', () => {
  it('keeps a number and its unit on one line (a no-break space between them)', () => {
    const f = formatsFor('de', 'EUR');
    expect(f.meters(34)).toBe('34\u00a0m');
    expect(f.meters(1250)).toBe('1,3\u00a0km');
    expect(f.area(72.5)).toBe('72,5\u00a0m²');
  });

  it('writes a price per m² with cents below 100 (rents), whole above (sales)', () => {
    const f = formatsFor('de', 'EUR');
    expect(f.perArea(18.7)).toBe('18,70\u00a0€');
    expect(f.perArea(6441.96)).toBe('6.442\u00a0€');
    expect(formatsFor('en', 'EUR').perArea(99.994)).toBe('€99.99');
    expect(formatsFor('cs', 'CZK').perArea(312.4)).toBe('312\u00a0Kč');
  });
});
