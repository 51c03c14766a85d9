/**
 * Views counted per key (a link, a client address) in fixed windows: beyond `max` in a window
 * the key is refused until its window ends. Kept in memory, per process; at most `maxKeys` keys
 * are tracked, ended windows being dropped first.
 */
export class ViewCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {}

  /** Counts a view of `key` at `now` (ms); 0 when it may be shown, else seconds to wait. A
   * refused view is not counted. */
  hit(key: string, now: number): number {
    let window = this.windows.get(key);
    if (!window || now >= window.start + this.windowMs) {
      if (!window && this.windows.size >= this.maxKeys) this.sweep(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    if (window.count >= this.max) {
      return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
    }
    window.count += 1;
    return 0;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) {
      if (now >= window.start + this.windowMs) this.windows.delete(key);
    }
    // Every window still running: the oldest keys go (a Map iterates in insertion order).
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}
