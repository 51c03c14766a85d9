import { setImmediate } from 'node:timers/promises';

/**
 * Pieces of work that take turns, one at a time and a turn of the event loop apart, however
 * many requests have some under way: with a turn of its own per request, every request in
 * flight would run a piece in the same turn, and another request would wait for all of them.
 * `take()` waits for the piece's turn and answers the function that ends it (once is enough;
 * again does nothing).
 */
export function turnsApart(): () => Promise<() => void> {
  let last: Promise<void> = Promise.resolve();
  return async function take() {
    let done!: () => void;
    const ended = new Promise<void>((resolve) => (done = resolve));
    const previous = last;
    last = previous.then(() => ended);
    await previous;
    await setImmediate();
    return done;
  };
}
