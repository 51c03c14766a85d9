import { describe, expect, it } from 'vitest';
import { valuationChangePercent } from './change.js';

describe('valuationChangePercent', () => {
  it.each([
    [100, 121.57, 21.6],
    [100, 121.55, 21.6],
    [100, 121.54, 21.5],
    [100, 78.45, -21.6],
    [100, 78.46, -21.5],
    [100, 100, 0],
    [100, 99.96, 0],
    [200, 100, -50],
    [300000, 315000, 5],
    [1000, 1000.5, 0.1],
    [1000, 999.5, -0.1],
    [3, 4, 33.3],
  ])('from %d to %d is %d %%', (past, today, expected) => {
    expect(valuationChangePercent(past, today)).toBe(expected);
  });

  it('rounds halves away from zero, not up', () => {
    expect(valuationChangePercent(100, 100.05)).toBe(0.1);
    expect(valuationChangePercent(100, 99.95)).toBe(-0.1);
  });

  it('has no value from a past value of 0', () => {
    expect(valuationChangePercent(0, 5)).toBeNull();
  });
});
