import { EventEmitter } from 'node:events';

/** A response: its events, and whether its connection is gone. */
class Response extends EventEmitter {
  destroyed = false;
}
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../http/problem.js';
import { UnsentReports } from './unsent-reports.js';

const refusal = (fn: () => void): AppError | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error as AppError;
  }
};

describe('UnsentReports', () => {
  it('refuses an organization at its own limit (429) and everyone at the process limit (503)', () => {
    const unsent = new UnsentReports(100, 60);
    const a1 = new Response();
    const a2 = new Response();
    const b1 = new Response();
    unsent.admit('a');
    unsent.hold('a', 40, a1);
    unsent.admit('a');
    unsent.hold('a', 30, a2);
    // Organization a holds 70 of its 60: its next report waits; b's is admitted.
    const own = refusal(() => unsent.admit('a'));
    expect(own?.code).toBe('rate_limited');
    expect(own?.headers['retry-after']).toBe('60');
    expect(refusal(() => unsent.admit('b'))).toBeUndefined();
    unsent.hold('b', 30, b1);
    // The process holds 100: everyone waits.
    expect(refusal(() => unsent.admit('b'))?.code).toBe('overloaded');
    expect(unsent.held()).toBe(100);

    // A response done (finish) or cut (close) gives its bytes back, once.
    a1.emit('finish');
    a1.emit('close');
    expect([unsent.held(), unsent.held('a')]).toEqual([60, 30]);
    expect(refusal(() => unsent.admit('a'))).toBeUndefined();
    b1.emit('close');
    a2.emit('close');
    expect([unsent.held(), unsent.held('a'), unsent.held('b')]).toEqual([0, 0, 0]);
  });

  it('holds nothing for a response whose client went away while the report was made', () => {
    const unsent = new UnsentReports(100, 60);
    const gone = new Response();
    gone.destroyed = true;
    unsent.hold('a', 80, gone);
    expect(unsent.held()).toBe(0);
    expect(refusal(() => unsent.admit('a'))).toBeUndefined();
  });
});
