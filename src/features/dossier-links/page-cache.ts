/**
 * What shared pages show, kept for `ttlMs` under a key naming everything it was computed from
 * (link, market snapshot, dossier content, day), so that repeated views compute nothing. The
 * promise is kept, not its value: views arriving while it is computed wait for the same one
 * instead of each starting its own. A failure is not kept. At most `maxEntries` are kept, the
 * expired and then the oldest dropped first.
 */
export class PageCache<T> {
  private readonly entries = new Map<string, { until: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now: number, make: () => Promise<T>): Promise<T> {
    const kept = this.entries.get(key);
    if (kept && now < kept.until) return kept.value;
    this.entries.delete(key);
    this.makeRoom(now);
    const value = make();
    this.entries.set(key, { until: now + this.ttlMs, value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  private makeRoom(now: number): void {
    if (this.entries.size < this.maxEntries) return;
    for (const [key, entry] of this.entries) {
      if (now >= entry.until) this.entries.delete(key);
    }
    for (const key of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}
