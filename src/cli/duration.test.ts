import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['45s', 45],
    ['90m', 5400],
    ['12h', 43_200],
    ['30d', 2_592_000],
    ['2w', 1_209_600],
    ['never', null],
  ])('%s', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', '0d', '30', 'd', '1.5h', '30 days', '-1d', '1y'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
