import fs from 'node:fs';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuck, queryRows } from './duck.js';
import { ensureMarketData } from './import/run-import.js';
import { connectSnapshot } from './snapshot-connection.js';
import type { DivisionKey, DivisionSlice } from './queries/division-slice.js';
import { SliceCache } from './queries/slice-cache.js';
import { currentSnapshot, marketPaths, type MarketPaths } from './snapshots.js';

/** Idle DuckDB connections kept per snapshot; more are opened under load and closed after. */
const IDLE_CONNECTIONS = 8;

/** How each snapshot's DuckDB instance is sized; unset: DuckDB's defaults. */
export interface DuckOptions {
  /** Worker threads (default: one per core). */
  threads?: number;
  /** Buffer pool limit, e.g. `512MB` (default: 80% of the machine's memory, per process). */
  memoryLimit?: string;
}

/**
 * Told when the store switched to a new snapshot, with read access to it: to fill caches in
 * the background before requests need them. Runs after the switch; must not throw.
 */
export type SwitchListener = (
  read: <T>(work: (db: DuckDBConnection, view: SnapshotView) => Promise<T>) => Promise<T>,
) => void;

/** How much memory each snapshot's division slices may hold (0: statistics always in SQL). */
export interface SliceOptions {
  sliceBudgetBytes?: number;
}

const duckOptions = ({ threads, memoryLimit }: DuckOptions): DuckOptions => ({
  ...(threads ? { threads } : {}),
  ...(memoryLimit ? { memoryLimit } : {}),
});

/** How many of the previous snapshot's busiest divisions a new snapshot loads ahead of use. */
const WARM_DIVISIONS = 50;

/** What a reader knows about the snapshot it reads, without a query. */
export interface SnapshotView {
  /** The snapshot's file: its data never changes under that name. */
  readonly file: string;
  hasDivision(countryCode: string, level: number, id: string): boolean;
  /** A division's offers in memory (see SliceCache); undefined when they do not fit. */
  divisionSlice(key: DivisionKey): Promise<DivisionSlice | undefined>;
  /** Runs more work on another connection to the same snapshot: parts of one answer in
   * parallel, all from the same data. */
  alongside<T>(work: (db: DuckDBConnection) => Promise<T>): Promise<T>;
  /** Aborted when the request's market work passes its deadline (withQueryDeadline gives it):
   * work computed in JavaScript, which no DuckDB interruption reaches, stops there too. */
  readonly signal?: AbortSignal;
}

const divisionKey = (countryCode: string, level: number, id: string) =>
  `${countryCode}|${String(level)}|${id}`;

/** One open snapshot, closed once it is retired and its last reader is done. */
class OpenSnapshot implements SnapshotView {
  private readonly idle: DuckDBConnection[] = [];
  private readers = 0;
  private retired = false;

  private constructor(
    readonly file: string,
    private readonly instance: DuckDBInstance,
    // Every request names a division; checking it in memory saves a query per request.
    private readonly divisions: ReadonlySet<string>,
    readonly slices: SliceCache,
  ) {}

  static async open(
    file: string,
    duck: DuckOptions,
    sliceBudgetBytes: number,
  ): Promise<OpenSnapshot> {
    const instance = await openDuck(file, { readOnly: true, ...duck });
    let db: DuckDBConnection;
    try {
      db = await connectSnapshot(instance);
    } catch (error) {
      instance.closeSync();
      throw error;
    }
    try {
      const rows = await queryRows(db, 'select country_code, level, id from divisions');
      const keys = new Set(
        rows.map((r) => divisionKey(String(r.country_code), Number(r.level), String(r.id))),
      );
      const snapshot = new OpenSnapshot(file, instance, keys, new SliceCache(sliceBudgetBytes));
      snapshot.idle.push(db);
      return snapshot;
    } catch (error) {
      db.closeSync();
      instance.closeSync();
      throw error;
    }
  }

  hasDivision(countryCode: string, level: number, id: string): boolean {
    return this.divisions.has(divisionKey(countryCode, level, id));
  }

  alongside<T>(work: (db: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.run((db) => work(db));
  }

  divisionSlice(key: DivisionKey): Promise<DivisionSlice | undefined> {
    return this.slices.slice(key, (work) => this.alongside(work));
  }

  /**
   * Loads the slices of divisions in the background, one after another, so that the first
   * requests after a switch do not wait for them. Failures only mean a cold first request.
   */
  warm(keys: readonly DivisionKey[]): void {
    this.warming = (async () => {
      for (const key of keys) {
        if (this.retired) return;
        await this.divisionSlice(key).catch(() => undefined);
      }
    })();
  }

  /** Settles when the slices `warm` was asked for are loaded (or skipped). */
  warming: Promise<void> = Promise.resolve();

  async run<T>(work: (db: DuckDBConnection, view: SnapshotView) => Promise<T>): Promise<T> {
    this.readers += 1;
    const connection = this.idle.pop() ?? (await connectSnapshot(this.instance));
    try {
      return await work(connection, this);
    } finally {
      this.readers -= 1;
      if (this.idle.length < IDLE_CONNECTIONS && !this.retired) this.idle.push(connection);
      else connection.closeSync();
      this.closeIfDone();
    }
  }

  retire(): void {
    this.retired = true;
    this.closeIfDone();
  }

  private closeIfDone(): void {
    if (!this.retired || this.readers > 0) return;
    this.slices.clear();
    for (const connection of this.idle.splice(0)) connection.closeSync();
    this.instance.closeSync();
  }
}

/**
 * Read access to the current market snapshot. A new snapshot published by an import (in this or
 * another process) is picked up by `refresh()`, which a timer calls every `pollMs`: requests that
 * started on the old snapshot finish on it, new ones use the new one.
 */
export class MarketStore {
  private timer: NodeJS.Timeout | undefined;
  /** The last refresh asked for (settled: never rejects), which the next one waits for. */
  private refreshing: Promise<boolean> = Promise.resolve(false);
  /** A refresh asked for that has not read the published snapshot yet: later callers share it. */
  private waiting: Promise<boolean> | undefined;
  private closed = false;
  private readonly switchListeners = new Set<SwitchListener>();

  private constructor(
    private readonly paths: MarketPaths,
    private snapshot: OpenSnapshot,
    private readonly duck: DuckOptions,
    private readonly sliceBudgetBytes: number,
  ) {}

  static async open(
    dataDir: string,
    options: { pollMs?: number } & DuckOptions & SliceOptions = {},
  ): Promise<MarketStore> {
    await ensureMarketData(dataDir);
    const paths = marketPaths(dataDir);
    const budget = options.sliceBudgetBytes ?? 0;
    const store = new MarketStore(
      paths,
      await MarketStore.openCurrent(paths, duckOptions(options), budget),
      duckOptions(options),
      budget,
    );
    if (options.pollMs) {
      store.timer = setInterval(() => void store.refresh().catch(() => undefined), options.pollMs);
      store.timer.unref();
    }
    return store;
  }

  private static async openCurrent(
    paths: MarketPaths,
    duck: DuckOptions,
    sliceBudgetBytes: number,
  ): Promise<OpenSnapshot> {
    const file = currentSnapshot(paths);
    if (!file) throw new Error(`no market snapshot in ${paths.dir}`);
    return OpenSnapshot.open(file, duck, sliceBudgetBytes);
  }

  /** Settles once the current snapshot has loaded the slices it warms after a switch. */
  warmed(): Promise<void> {
    return this.snapshot.warming;
  }

  /** What the current snapshot's division slices hold, for /health and benchmarks. */
  get sliceCache(): { bytes: number; divisions: number; budgetBytes: number } {
    const { slices } = this.snapshot;
    return { bytes: slices.bytes, divisions: slices.size, budgetBytes: slices.budgetBytes };
  }

  /** Whether the statistics of a division of `offers` offers are computed in memory. */
  holdsInMemory(offers: number): boolean {
    return this.snapshot.slices.fits(offers);
  }

  get snapshotFile(): string {
    return this.snapshot.file;
  }

  /** Runs read-only work on the current snapshot. */
  read<T>(work: (db: DuckDBConnection, view: SnapshotView) => Promise<T>): Promise<T> {
    return this.snapshot.run(work);
  }

  /**
   * Switches to a newer snapshot if one was published; true when it switched. Refreshes run one
   * after another and each reads the published snapshot only once the previous one is done: a
   * caller that has just published a snapshot and refreshes is on it when this resolves, even if
   * the timer's refresh was already opening an older one. A refresh that has not started yet is
   * shared, so a slow open never queues more than one more.
   */
  refresh(): Promise<boolean> {
    if (this.waiting) return this.waiting;
    const next = this.refreshing.then(() => {
      this.waiting = undefined;
      return this.switchIfNewer();
    });
    this.waiting = next;
    this.refreshing = next.catch(() => false);
    return next;
  }

  private async switchIfNewer(): Promise<boolean> {
    const file = currentSnapshot(this.paths);
    if (this.closed || !file || file === this.snapshot.file || !fs.existsSync(file)) return false;
    const next = await OpenSnapshot.open(file, this.duck, this.sliceBudgetBytes);
    // Asked anew: close() may have run while the snapshot was opening; then nobody will read it.
    if (this.isClosed()) {
      next.retire();
      return false;
    }
    const old = this.snapshot;
    this.snapshot = next;
    next.warm(old.slices.busiest(WARM_DIVISIONS));
    old.retire();
    for (const listener of this.switchListeners) listener((work) => next.run(work));
    return true;
  }

  /** Calls `listener` after each switch to a new snapshot; returns the unsubscribe. */
  onSwitch(listener: SwitchListener): () => void {
    this.switchListeners.add(listener);
    return () => this.switchListeners.delete(listener);
  }

  private isClosed(): boolean {
    return this.closed;
  }

  async ping(): Promise<void> {
    await this.read((db) => db.run('select 1'));
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.snapshot.retire();
  }
}
