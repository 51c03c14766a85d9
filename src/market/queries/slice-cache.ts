import type { DuckDBConnection } from '@duckdb/node-api';
import {
  divisionOfferCount,
  loadDivisionSlice,
  SLICE_BYTES_PER_OFFER,
  type DivisionKey,
  type DivisionSlice,
} from './division-slice.js';

const keyOf = (key: DivisionKey) => `${key.countryCode}|${String(key.level)}|${key.id}`;

/**
 * The division slices of one snapshot, least recently used dropped first once their bytes
 * exceed the budget. A division whose slice alone would exceed the budget is never loaded: its
 * statistics stay on the SQL path. Concurrent first requests for one division share one load.
 * The snapshot drops the whole cache when it is retired.
 */
export class SliceCache {
  private readonly slices = new Map<string, { key: DivisionKey; slice: DivisionSlice }>();
  private readonly loading = new Map<string, Promise<DivisionSlice | undefined>>();
  private readonly tooLarge = new Set<string>();
  /** Requests per division, to warm the busiest ones first in the next snapshot. */
  private readonly uses = new Map<string, { key: DivisionKey; count: number }>();
  private heldBytes = 0;

  constructor(readonly budgetBytes: number) {}

  get bytes(): number {
    return this.heldBytes;
  }

  get size(): number {
    return this.slices.size;
  }

  /** Whether a division of `offers` offers has its slice held here: its statistics are then
   * computed in memory, on the server's thread, not by DuckDB. */
  fits(offers: number): boolean {
    return this.budgetBytes > 0 && offers * SLICE_BYTES_PER_OFFER <= this.budgetBytes;
  }

  /** The slice of a division, loaded with `read` on first use; undefined when it does not fit. */
  async slice(
    key: DivisionKey,
    read: <T>(work: (db: DuckDBConnection) => Promise<T>) => Promise<T>,
  ): Promise<DivisionSlice | undefined> {
    if (this.budgetBytes <= 0) return undefined;
    const id = keyOf(key);
    const use = this.uses.get(id);
    if (use) use.count++;
    else this.uses.set(id, { key, count: 1 });
    const held = this.slices.get(id);
    if (held) {
      this.slices.delete(id);
      this.slices.set(id, held);
      return held.slice;
    }
    if (this.tooLarge.has(id)) return undefined;
    let pending = this.loading.get(id);
    if (!pending) {
      pending = read((db) => this.load(id, key, db)).finally(() => this.loading.delete(id));
      this.loading.set(id, pending);
    }
    return pending;
  }

  private async load(
    id: string,
    key: DivisionKey,
    db: DuckDBConnection,
  ): Promise<DivisionSlice | undefined> {
    const offers = await divisionOfferCount(db, key);
    if (!this.fits(offers)) {
      this.tooLarge.add(id);
      return undefined;
    }
    const slice = await loadDivisionSlice(db, key);
    this.slices.set(id, { key, slice });
    this.heldBytes += slice.bytes;
    for (const [oldId, old] of this.slices) {
      if (this.heldBytes <= this.budgetBytes) break;
      this.slices.delete(oldId);
      this.heldBytes -= old.slice.bytes;
    }
    return slice;
  }

  /** The most requested divisions, busiest first. */
  busiest(count: number): DivisionKey[] {
    return [...this.uses.values()]
      .sort((a, b) => b.count - a.count)
      .slice(0, count)
      .map((u) => u.key);
  }

  clear(): void {
    this.slices.clear();
    this.heldBytes = 0;
  }
}
