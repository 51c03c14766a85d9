import { describe, expect, it } from 'vitest';
import { formatsFor } from './format.js';

describe('formatsFor', () => {
  it('keeps a number and its unit on one line (a no-break space between them)', () => {
    const f = formatsFor('de', 'EUR');
    expect(f.meters(34)).toBe('34\u00a0m');
    expect(f.meters(1250)).toBe('1,3\u00a0km');
    expect(f.area(72.5)).toBe('72,5\u00a0m²');
  });
});
