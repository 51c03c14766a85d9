/**
 * Runs the work of one key one piece after another, in the order it came; work of other keys
 * runs alongside. A key's entry lives only while it has work, so keys never pile up.
 */
export class KeyedTurns {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(work);
    // The next piece waits for this one however it ends.
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work running or waiting (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
