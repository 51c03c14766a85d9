import { describe, expect, it } from 'vitest';
import { ViewCounter } from './view-counter.js';

describe('ViewCounter', () => {
  it('allows `max` views of a key per window, says how long to wait, and starts afresh', () => {
    const counter = new ViewCounter(2, 60_000, 100);
    expect(counter.hit('a', 0)).toBe(0);
    expect(counter.hit('a', 1_000)).toBe(0);
    // 59 s left in the window; a refused view does not count.
    expect(counter.hit('a', 1_000)).toBe(59);
    expect(counter.hit('a', 59_500)).toBe(1);
    expect(counter.hit('b', 59_500)).toBe(0);
    expect(counter.hit('a', 60_000)).toBe(0);
  });

  it('keeps at most `maxKeys`, dropping ended windows first, then the oldest', () => {
    const counter = new ViewCounter(1, 60_000, 2);
    counter.hit('old', 0);
    counter.hit('busy', 30_000);
    // 'old' has ended at 60 s: it goes, 'busy' stays refused.
    expect(counter.hit('new', 61_000)).toBe(0);
    expect(counter.hit('busy', 61_000)).toBe(29);
    // Both windows running: the oldest key ('busy') goes to make room.
    expect(counter.hit('newer', 62_000)).toBe(0);
    expect(counter.hit('busy', 62_000)).toBe(0);
  });
});
