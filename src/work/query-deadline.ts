import type { DuckDBConnection } from '@duckdb/node-api';
import type { SnapshotView } from '../market/market-store.js';

/** Market queries ran past their deadline and were interrupted. */
export class QueryDeadlineExceeded extends Error {
  constructor(readonly deadlineMs: number) {
    super(`market queries took longer than ${String(deadlineMs)} ms and were interrupted`);
    this.name = 'QueryDeadlineExceeded';
  }
}

/**
 * Runs market work with a deadline: when it passes, every DuckDB connection the work is using
 * (its own and those it took `alongside`) is interrupted, so the query stops and frees its
 * threads instead of running on for a client that has long given up. The connections stay
 * usable: DuckDB clears the interruption when the next query starts.
 */
export async function withQueryDeadline<T>(
  db: DuckDBConnection,
  view: SnapshotView,
  deadlineMs: number,
  work: (db: DuckDBConnection, view: SnapshotView) => Promise<T>,
): Promise<T> {
  const active = new Set<DuckDBConnection>([db]);
  const state = { expired: false };
  const deadline = new AbortController();
  const timer = setTimeout(() => {
    state.expired = true;
    for (const connection of active) connection.interrupt();
    deadline.abort(new QueryDeadlineExceeded(deadlineMs));
  }, deadlineMs);
  // A proxy, so that whatever else a snapshot view offers reaches the work unchanged.
  const alongside: SnapshotView['alongside'] = (more) =>
    view.alongside(async (other) => {
      if (state.expired) throw new QueryDeadlineExceeded(deadlineMs);
      active.add(other);
      try {
        return await more(other);
      } finally {
        active.delete(other);
      }
    });
  const guarded = new Proxy(view, {
    get: (target, name): unknown => {
      if (name === 'alongside') return alongside;
      if (name === 'signal') return deadline.signal;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  try {
    return await work(db, guarded);
  } catch (error) {
    throw state.expired ? new QueryDeadlineExceeded(deadlineMs) : error;
  } finally {
    clearTimeout(timer);
  }
}
