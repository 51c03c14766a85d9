import { QueueRefusal } from './fair-queue.js';

export interface KeyedTurnsOptions {
  /** Pieces of one key running or waiting at once; the next is refused at once. */
  maxPending: number;
  /** How long a piece may wait for its turn before it is refused (and never runs). */
  maxWaitMs: number;
  /** Says what the key is, for the refusals' messages ("this dossier"). */
  what: string;
}

/**
 * Runs the work of one key one piece after another, in the order it came; work of other keys
 * runs alongside. A key's entry lives only while it has work, so keys never pile up. The pieces
 * of one key are bounded in number and in waiting time (`QueueRefusal`, a `429` or `503`), so
 * a client sending many at once to one key neither grows a queue without end nor leaves
 * requests waiting after their clients gave up.
 */
export class KeyedTurns {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly pending = new Map<string, number>();

  constructor(private readonly options: KeyedTurnsOptions) {}

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const pending = this.pending.get(key) ?? 0;
    if (pending >= this.options.maxPending) {
      return Promise.reject(
        new QueueRefusal(
          'organization_busy',
          `Too many changes of ${this.options.what} are waiting; retry when some have finished`,
        ),
      );
    }
    this.pending.set(key, pending + 1);
    const before = this.tails.get(key) ?? Promise.resolve();
    return new Promise<T>((resolve, reject) => {
      let refused = false;
      const timer = setTimeout(() => {
        refused = true;
        reject(
          new QueueRefusal(
            'wait_too_long',
            `A change of ${this.options.what} waited too long for the ones before it`,
          ),
        );
      }, this.options.maxWaitMs);
      // The next piece waits for this one however it ends.
      const tail = before.then(async () => {
        clearTimeout(timer);
        if (refused) return;
        try {
          resolve(await work());
        } catch (error) {
          // The work's own failure, passed on as it is.
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
          reject(error);
        }
      });
      this.tails.set(key, tail);
      void tail.then(() => {
        const left = (this.pending.get(key) ?? 1) - 1;
        if (left > 0) this.pending.set(key, left);
        else this.pending.delete(key);
        if (this.tails.get(key) === tail) this.tails.delete(key);
      });
    });
  }

  /** Keys with work running or waiting (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
