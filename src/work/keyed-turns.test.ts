import { describe, expect, it } from 'vitest';
import { KeyedTurns } from './keyed-turns.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedTurns', () => {
  it('runs one key’s work one after another in order, other keys alongside, and forgets idle keys', async () => {
    const turns = new KeyedTurns();
    const log: string[] = [];
    const releases: Record<string, () => void> = {};
    const piece = (name: string) => () =>
      new Promise<string>((resolve) => {
        log.push(`start ${name}`);
        releases[name] = () => {
          log.push(`end ${name}`);
          resolve(name);
        };
      });
    const a1 = turns.run('a', piece('a1'));
    const a2 = turns.run('a', piece('a2'));
    const b1 = turns.run('b', piece('b1'));
    await tick();
    expect(log).toEqual(['start a1', 'start b1']);
    releases.b1?.();
    releases.a1?.();
    await tick();
    expect(log).toEqual(['start a1', 'start b1', 'end b1', 'end a1', 'start a2']);
    releases.a2?.();
    expect(await Promise.all([a1, a2, b1])).toEqual(['a1', 'a2', 'b1']);
    await tick();
    expect(turns.size).toBe(0);
  });

  it('goes on with the next piece after one that fails, which fails alone', async () => {
    const turns = new KeyedTurns();
    const failed = turns.run('a', () => Promise.reject(new Error('broken')));
    const next = turns.run('a', () => Promise.resolve('next'));
    await expect(failed).rejects.toThrow('broken');
    expect(await next).toBe('next');
  });
});
