import type { DuckDBConnection } from '@duckdb/node-api';
import { limits } from '../limits.js';
import type { SnapshotView } from '../market/market-store.js';
import { withQueryDeadline } from './query-deadline.js';
import { DivisionRows } from './cost.js';
import { FairQueue, type FairQueueOptions } from './fair-queue.js';

export interface CostlyWorkOptions extends FairQueueOptions {
  /** Cost from which a request is costly and waits for a turn; cheaper ones run at once. A
   * statistics request computed in memory, on the server's thread… */
  statisticsCostly: number;
  /** …and one computed by DuckDB, on its own threads. */
  statisticsQueryCostly: number;
  valuationPairsCostly: number;
  /** Deadline of the market queries of one request. */
  queryDeadlineMs: number;
}

/**
 * The per-organization budget for costly requests, shared by the services that can make one
 * (offer statistics, valuations): cheap work runs at once, costly work takes its turn in a
 * fair queue across organizations (`limits.work`), so that one organization's heavy requests
 * cannot make everyone else's wait.
 */
export class CostlyWork {
  readonly queue: FairQueue;
  /** Offers per division, the row estimate of a statistics request. */
  readonly divisionRows = new DivisionRows();

  readonly options: CostlyWorkOptions;

  /** The budgets of `limits.work`, but for those given (tests make them small). */
  constructor(changes: Partial<CostlyWorkOptions> = {}) {
    this.options = { ...limits.work, ...changes };
    this.queue = new FairQueue(this.options);
  }

  /** Told how long each request's market queries took, by kind (metrics listen here). */
  onQueries: ((kind: string, seconds: number, outcome: 'done' | 'failed') => void) | undefined;

  /** A request's market queries: with the deadline, timed. */
  async queries<T>(
    kind: string,
    db: DuckDBConnection,
    view: SnapshotView,
    work: (db: DuckDBConnection, view: SnapshotView) => Promise<T>,
  ): Promise<T> {
    const started = performance.now();
    let outcome: 'done' | 'failed' = 'failed';
    try {
      const result = await withQueryDeadline(db, view, this.options.queryDeadlineMs, work);
      outcome = 'done';
      return result;
    } finally {
      this.onQueries?.(kind, (performance.now() - started) / 1000, outcome);
    }
  }

  /** Runs `work` at once when `costly` is false, else in the organization's turn. */
  run<T>(organizationId: string, costly: boolean, work: () => Promise<T>): Promise<T> {
    return costly ? this.queue.run(organizationId, work) : work();
  }
}
