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
    ['5218w', 5218 * 604_800],
    ['36526d', 36_526 * 86_400],
  ])('%s', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  // Past 100 years: an expiry after 9999 would be written `+010000-…` and read as past.
  it.each(['', '0d', '30', 'd', '1.5h', '30 days', '-1d', '1y', '5219w', '36527d', '999999w'])(
    'refuses %j',
    (text) => {
      expect(parseDuration(text)).toBeUndefined();
    },
  );
});
