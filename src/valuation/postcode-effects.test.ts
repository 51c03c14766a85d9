import { describe, expect, it } from 'vitest';
import { shrunkEffects } from './postcode-effects.js';

describe('shrunkEffects', () => {
  it('is the residual sum over offers + shrinkage', () => {
    const effects = shrunkEffects(
      [
        { postcode: 'A', residual: 1, n: 6 },
        { postcode: 'B', residual: -2, n: 3 },
      ],
      4,
    );
    // A: 1 / (6 + 4) = 0.1; B: −2 / (3 + 4) = −2/7
    expect(effects.get('A')).toBeCloseTo(0.1, 12);
    expect(effects.get('B')).toBeCloseTo(-2 / 7, 12);
    expect(effects.has('C')).toBe(false);
  });

  it('keeps a postcode with few offers near the region level', () => {
    const few = shrunkEffects([{ postcode: 'A', residual: 0.6, n: 2 }]).get('A') ?? 0;
    const many = shrunkEffects([{ postcode: 'A', residual: 30, n: 100 }]).get('A') ?? 0;
    // Both have a mean residual of 0.3; the thin one is pulled towards 0 far more.
    expect(few).toBeLessThan(0.1);
    expect(many).toBeGreaterThan(0.28);
  });
});
