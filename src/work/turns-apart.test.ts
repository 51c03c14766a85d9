import { setImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { turnsApart } from './turns-apart.js';

describe('pieces of work taking turns', () => {
  it('runs one at a time, in the order asked, with a turn of the event loop between them', async () => {
    const take = turnsApart();
    const events: string[] = [];
    const piece = async (name: string) => {
      const done = await take();
      events.push(`${name} starts`);
      // Work that lasts beyond a turn of its own: the next piece waits for its end.
      await setImmediate();
      await setImmediate();
      events.push(`${name} ends`);
      // Something else the event loop has to do, asked for as the piece ends.
      void setImmediate().then(() => events.push(`other after ${name}`));
      done();
      done();
    };
    await Promise.all([piece('a'), piece('b'), piece('c')]);
    await setImmediate();
    expect(events).toEqual([
      'a starts',
      'a ends',
      'other after a',
      'b starts',
      'b ends',
      'other after b',
      'c starts',
      'c ends',
      'other after c',
    ]);
  });

  it('goes on after a piece that failed, once it ended its turn', async () => {
    const take = turnsApart();
    const failing = (async () => {
      const done = await take();
      try {
        throw new Error('broken');
      } finally {
        done();
      }
    })();
    const next = take().then((done) => {
      done();
      return 'ran';
    });
    await expect(failing).rejects.toThrow('broken');
    await expect(next).resolves.toBe('ran');
  });
});
