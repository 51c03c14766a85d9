import { describe, expect, it } from 'vitest';
import { countTurns } from '../../test/helpers/event-loop.js';
import { Pacer } from './pacer.js';

describe('Pacer', () => {
  it('gives the event loop a turn at each pause once the time has passed, not before', async () => {
    const counter = countTurns();
    const always = new Pacer(0);
    for (let i = 0; i < 5; i++) await always.pause();
    const afterFive = counter.turns();
    expect(afterFive).toBeGreaterThanOrEqual(5);
    // An hour between turns: no pause gives one (microtasks only, the loop never turns).
    const never = new Pacer(3_600_000);
    for (let i = 0; i < 5; i++) await never.pause();
    expect(counter.turns()).toBe(afterFive);
    counter.stop();
  });

  it('throws the reason of its aborted signal at the next pause, not before', async () => {
    const deadline = new AbortController();
    const pacer = new Pacer(3_600_000, deadline.signal);
    await pacer.pause();
    deadline.abort(new Error('past the deadline'));
    await expect(pacer.pause()).rejects.toThrow('past the deadline');
  });
});
