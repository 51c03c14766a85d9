import { describe, expect, it } from 'vitest';
import { AppError } from '../http/problem.js';
import { OrganizationTurns } from './organization-turns.js';

/** A piece of work that runs until `finish()`. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}

describe('turns of an organization’s transactions', () => {
  it('lets at most the bound run at once per organization, in the order asked, others untouched', async () => {
    const turns = new OrganizationTurns(2, 60_000, 5);
    const started: string[] = [];
    const pieces = ['a1', 'a2', 'a3', 'a4'].map((name) => ({ name, ...held() }));
    const runs = pieces.map((piece) =>
      turns.run('A', () => {
        started.push(piece.name);
        return piece.work();
      }),
    );
    const other = held();
    const otherRun = turns.run('B', () => {
      started.push('b1');
      return other.work();
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a1', 'a2', 'b1']);
    pieces[1]?.finish();
    await runs[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    for (const piece of pieces) piece.finish();
    other.finish();
    await Promise.all([...runs, otherRun]);
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  });

  it('refuses a turn not given within the wait with a 503 and Retry-After, and goes on', async () => {
    const turns = new OrganizationTurns(1, 20, 5);
    const first = held();
    const running = turns.run('A', first.work);
    const refused = turns.run('A', () => Promise.resolve('ran'));
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({
      code: 'overloaded',
      headers: { 'retry-after': '5' },
    });
    first.finish();
    await running;
    await expect(turns.run('A', () => Promise.resolve('ran'))).resolves.toBe('ran');
  });

  it('hands the turn on when a piece fails', async () => {
    const turns = new OrganizationTurns(1, 60_000, 5);
    const failing = turns.run('A', () => Promise.reject(new Error('broken')));
    const next = turns.run('A', () => Promise.resolve('ran'));
    await expect(failing).rejects.toThrow('broken');
    await expect(next).resolves.toBe('ran');
  });

  it('does not bound where every transaction takes the one connection in turn anyway', async () => {
    const turns = new OrganizationTurns(Infinity, 20, 5);
    const pieces = Array.from({ length: 5 }, held);
    let started = 0;
    const runs = pieces.map((piece) =>
      turns.run('A', () => {
        started++;
        return piece.work();
      }),
    );
    expect(started).toBe(5);
    for (const piece of pieces) piece.finish();
    await Promise.all(runs);
  });
});
