import { limits } from '../limits.js';
import { DivisionRows } from './cost.js';
import { FairQueue, type FairQueueOptions } from './fair-queue.js';

export interface CostlyWorkOptions extends FairQueueOptions {
  /** Cost from which a request is costly and waits for a turn; cheaper ones run at once. */
  statisticsCostly: number;
  valuationPairsCostly: number;
  /** Deadline of the market queries of one request. */
  queryDeadlineMs: number;
}

export const defaultCostlyWorkOptions = (): CostlyWorkOptions => ({ ...limits.work });

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

  constructor(readonly options: CostlyWorkOptions = defaultCostlyWorkOptions()) {
    this.queue = new FairQueue(options);
  }

  /** Runs `work` at once when `costly` is false, else in the organization's turn. */
  run<T>(organizationId: string, costly: boolean, work: () => Promise<T>): Promise<T> {
    return costly ? this.queue.run(organizationId, work) : work();
  }
}
