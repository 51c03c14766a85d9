import { describe, expect, it } from 'vitest';
import { QueueRefusal } from './fair-queue.js';
import { KeyedTurns, type KeyedTurnsOptions } from './keyed-turns.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

const roomy: KeyedTurnsOptions = { maxPending: 100, maxWaitMs: 60_000, what: 'this key' };

/** A piece of work that runs until released, and says whether it started. */
function held() {
  let release = () => {};
  const state = { started: false };
  const work = () =>
    new Promise<string>((resolve) => {
      state.started = true;
      release = () => resolve('done');
    });
  return { work, state, release: () => release() };
}

describe('KeyedTurns', () => {
  it('runs one key’s work one after another in order, other keys alongside, and forgets idle keys', async () => {
    const turns = new KeyedTurns(roomy);
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
    const turns = new KeyedTurns(roomy);
    const failed = turns.run('a', () => Promise.reject(new Error('broken')));
    const next = turns.run('a', () => Promise.resolve('next'));
    await expect(failed).rejects.toThrow('broken');
    expect(await next).toBe('next');
  });

  it('refuses a piece beyond the pending bound of its key at once, and takes pieces again when some end', async () => {
    const turns = new KeyedTurns({ ...roomy, maxPending: 2 });
    const first = held();
    const a1 = turns.run('a', first.work);
    const a2 = turns.run('a', () => Promise.resolve('a2'));
    const refused = turns.run('a', () => Promise.resolve('a3'));
    await expect(refused).rejects.toBeInstanceOf(QueueRefusal);
    await expect(refused).rejects.toMatchObject({ reason: 'organization_busy' });
    await expect(refused).rejects.toThrow('Too many changes of this key are waiting');
    // Another key is not held by a's bound.
    expect(await turns.run('b', () => Promise.resolve('b1'))).toBe('b1');
    await tick();
    first.release();
    expect(await Promise.all([a1, a2])).toEqual(['done', 'a2']);
    await tick();
    expect(await turns.run('a', () => Promise.resolve('a4'))).toBe('a4');
    await tick();
    expect(turns.size).toBe(0);
  });

  it('refuses a piece that waited too long, which then never runs, and goes on with the next', async () => {
    const turns = new KeyedTurns({ ...roomy, maxWaitMs: 5 });
    const first = held();
    const a1 = turns.run('a', first.work);
    let lateRan = false;
    const late = turns.run('a', () => {
      lateRan = true;
      return Promise.resolve('late');
    });
    await expect(late).rejects.toMatchObject({ reason: 'wait_too_long' });
    first.release();
    expect(await a1).toBe('done');
    expect(await turns.run('a', () => Promise.resolve('next'))).toBe('next');
    expect(lateRan).toBe(false);
    await tick();
    expect(turns.size).toBe(0);
  });
});
