import { describe, expect, it } from 'vitest';
import { TokenCache } from './token-cache.js';

describe('TokenCache', () => {
  it('answers within its lifetime and forgets after it, by the injected clock', () => {
    let now = 1_000;
    const cache = new TokenCache<string>(5_000, 10, () => now);
    cache.set('h1', 'owner 1');
    now += 4_999;
    expect(cache.get('h1')).toBe('owner 1');
    now += 1;
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping the oldest entry first', () => {
    let now = 0;
    const cache = new TokenCache<number>(60_000, 3, () => now);
    for (const n of [1, 2, 3]) {
      now += 10;
      cache.set(`h${String(n)}`, n);
    }
    // A renewed entry becomes the newest.
    cache.set('h1', 11);
    cache.set('h4', 4);
    expect(cache.size).toBe(3);
    expect(cache.get('h2')).toBeUndefined();
    expect([cache.get('h1'), cache.get('h3'), cache.get('h4')]).toEqual([11, 3, 4]);
  });

  it('keeps nothing with a lifetime of 0, and forgets everything on clear', () => {
    const off = new TokenCache<string>(0, 10, () => 0);
    off.set('h', 'x');
    expect(off.get('h')).toBeUndefined();
    const on = new TokenCache<string>(1_000, 10, () => 0);
    on.set('a', 'x');
    on.set('b', 'y');
    on.clear();
    expect([on.get('a'), on.get('b'), on.size]).toEqual([undefined, undefined, 0]);
  });
});
