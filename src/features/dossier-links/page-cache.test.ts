import { describe, expect, it } from 'vitest';
import { PageCache } from './page-cache.js';

describe('PageCache', () => {
  it('makes a value once per key while it is kept, and again after', async () => {
    const cache = new PageCache<number>(1_000, 10);
    let made = 0;
    const make = () => Promise.resolve(++made);
    expect(await Promise.all([cache.get('k', 0, make), cache.get('k', 10, make)])).toEqual([1, 1]);
    expect(await cache.get('k', 999, make)).toBe(1);
    expect(await cache.get('k', 1_000, make)).toBe(2);
    expect(await cache.get('other', 1_000, make)).toBe(3);
  });

  it('does not keep a failure', async () => {
    const cache = new PageCache<number>(1_000, 10);
    await expect(cache.get('k', 0, () => Promise.reject(new Error('no turn')))).rejects.toThrow(
      'no turn',
    );
    expect(await cache.get('k', 1, () => Promise.resolve(7))).toBe(7);
  });

  it('keeps at most `maxEntries`, dropping the expired first, then the oldest', async () => {
    const cache = new PageCache<string>(1_000, 2);
    await cache.get('a', 0, () => Promise.resolve('a'));
    await cache.get('b', 500, () => Promise.resolve('b'));
    // 'a' has expired at 1,000: it goes, 'b' stays.
    await cache.get('c', 1_100, () => Promise.resolve('c'));
    expect(cache.size).toBe(2);
    expect(await cache.get('b', 1_200, () => Promise.resolve('b again'))).toBe('b');
    // Both kept and current: the oldest ('b') goes.
    await cache.get('d', 1_300, () => Promise.resolve('d'));
    expect(await cache.get('b', 1_400, () => Promise.resolve('b again'))).toBe('b again');
  });
});
