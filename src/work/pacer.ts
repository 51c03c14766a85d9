/**
 * Gives the event loop a turn once `everyMs` of computing has passed since the last one: work
 * that computes in JavaScript on the server's one thread (statistics over a division's rows in
 * memory) calls `pause()` between its pieces, so that requests arriving meanwhile are read and
 * answered between them instead of waiting for the whole computation. Once `signal` is aborted
 * (the request's deadline), the next pause throws its reason: the work stops there.
 */
export class Pacer {
  private last = performance.now();

  constructor(
    private readonly everyMs: number,
    private readonly signal?: AbortSignal,
  ) {}

  async pause(): Promise<void> {
    this.signal?.throwIfAborted();
    if (performance.now() - this.last < this.everyMs) return;
    // setImmediate, not a microtask: it runs after the event loop has polled for I/O.
    await new Promise((resolve) => setImmediate(resolve));
    this.last = performance.now();
    this.signal?.throwIfAborted();
  }
}
