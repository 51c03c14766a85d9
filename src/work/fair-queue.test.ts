import { afterEach, describe, expect, it, vi } from 'vitest';
import { FairQueue, QueueRefusal, type FairQueueOptions } from './fair-queue.js';

/** A piece of work that finishes when the test says so, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return {
    work: async () => {
      log.push(name);
      await done;
      return name;
    },
    open: () => open(),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A queue of one slot, one running per organization and eight waiting, but for `changes`. */
const queueWith = (changes: Partial<FairQueueOptions> = {}) =>
  new FairQueue({
    slots: 1,
    perOrganization: 1,
    waitingPerOrganization: 8,
    maxWaitMs: 60_000,
    ...changes,
  });

describe('fair queue', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the next free slot to the organization whose turn it is, not to the one that queued most', async () => {
    const queue = queueWith();
    const started: string[] = [];
    const a = [1, 2, 3, 4].map((i) => gate(started, `a${String(i)}`));
    const b = [1, 2].map((i) => gate(started, `b${String(i)}`));
    const runs = [...a.map((g) => queue.run('A', g.work)), ...b.map((g) => queue.run('B', g.work))];
    await settle();
    expect(started).toEqual(['a1']);
    expect(queue.size).toEqual({ running: 1, waiting: 5 });
    for (const g of [a[0], b[0], a[1], b[1], a[2], a[3]]) {
      g?.open();
      await settle();
    }
    await Promise.all(runs);
    // Turns alternate while both have work waiting; A's fourth waits for B's second.
    expect(started).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('keeps one organization within its own budget while another uses the free slots', async () => {
    const queue = queueWith({ slots: 3 });
    const started: string[] = [];
    const a = [1, 2, 3].map((i) => gate(started, `a${String(i)}`));
    const b = gate(started, 'b1');
    const runs = [...a.map((g) => queue.run('A', g.work)), queue.run('B', b.work)];
    await settle();
    expect(started).toEqual(['a1', 'b1']);
    for (const g of [...a, b]) {
      g.open();
      await settle();
    }
    await Promise.all(runs);
  });

  it('refuses at once what an organization queues beyond its waiting bound; others are unaffected', async () => {
    const queue = queueWith({ waitingPerOrganization: 1 });
    const started: string[] = [];
    const a1 = gate(started, 'a1');
    const a2 = gate(started, 'a2');
    const b1 = gate(started, 'b1');
    const first = queue.run('A', a1.work);
    const second = queue.run('A', a2.work);
    await expect(queue.run('A', () => Promise.resolve('a3'))).rejects.toMatchObject({
      reason: 'organization_busy',
    });
    const other = queue.run('B', b1.work);
    for (const g of [a1, b1, a2]) {
      g.open();
      await settle();
    }
    expect(await Promise.all([first, second, other])).toEqual(['a1', 'a2', 'b1']);
  });

  it('refuses work that waited beyond the longest wait, and forgets it', async () => {
    vi.useFakeTimers();
    const queue = queueWith({ waitingPerOrganization: 4, maxWaitMs: 1000 });
    const started: string[] = [];
    const a1 = gate(started, 'a1');
    const first = queue.run('A', a1.work);
    const late = queue.run('B', () => Promise.resolve('b1'));
    const refused = expect(late).rejects.toBeInstanceOf(QueueRefusal);
    await vi.advanceTimersByTimeAsync(1001);
    await refused;
    expect(queue.size).toEqual({ running: 1, waiting: 0 });
    a1.open();
    expect(await first).toBe('a1');
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot of work that fails', async () => {
    const queue = queueWith({ waitingPerOrganization: 4 });
    await expect(queue.run('A', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const throwsAtOnce = (): Promise<string> => {
      throw new Error('at once');
    };
    await expect(queue.run('A', throwsAtOnce)).rejects.toThrow('at once');
    expect(await queue.run('A', () => Promise.resolve('next'))).toBe('next');
  });

  it("reads another organization's request between two pieces of synchronous work", async () => {
    const queue = queueWith();
    const started: string[] = [];
    let bRun: Promise<string> | undefined;
    // A's work computes without awaiting anything (statistics over rows in memory). While its
    // first piece runs, B's request arrives: a callback of the event loop, as a socket's data is.
    const syncWork = (name: string) => () => {
      started.push(name);
      if (name === 'a1') {
        setImmediate(() => {
          bRun = queue.run('B', () => {
            started.push('b1');
            return Promise.resolve('b1');
          });
        });
      }
      return Promise.resolve(name);
    };
    const aRuns = ['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => queue.run('A', syncWork(name)));
    await Promise.all(aRuns);
    await bRun;
    // B waits for at most one turn of A's, not for all of A's queue.
    expect(started.indexOf('b1')).toBeLessThanOrEqual(2);
    expect(started).toHaveLength(6);
  });
});
