import { AppError } from '../http/problem.js';
import { limits } from '../limits.js';
import type { AccountBackend } from './database.js';

/**
 * Transactions that take an organization's row (`lockOwnerRow`: quotas, storage, link
 * bounds) of one organization at once, per process. On PostgreSQL each holds a pool
 * connection while it waits for that row, and the row may be held for seconds (by a
 * maintenance session; `limits.accountStore.lockWaitMs`): without a bound, one organization's
 * waiting requests took every connection of the pool and every other organization's request
 * waited with them. They wait here instead, holding none; they take the row one after the
 * other anyway, so a few at once lose nothing. A request that gets no turn within `maxWaitMs`
 * is refused `503` with Retry-After, as one whose lock wait ran out.
 */
export class OrganizationTurns {
  private readonly organizations = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(
    /** At once per organization; `Infinity`: no bound (SQLite, whose one connection every
     * transaction takes in turn). */
    readonly perOrganization: number,
    private readonly maxWaitMs: number,
    private readonly retryAfterSeconds: number,
  ) {}

  async run<T>(organizationId: string, work: () => Promise<T>): Promise<T> {
    if (this.perOrganization === Infinity) return work();
    const state = this.organizations.get(organizationId) ?? { running: 0, waiting: [] };
    this.organizations.set(organizationId, state);
    if (state.running >= this.perOrganization) await this.turn(state);
    else state.running++;
    try {
      return await work();
    } finally {
      const next = state.waiting.shift();
      if (next) next();
      else if (--state.running === 0) this.organizations.delete(organizationId);
    }
  }

  /** Waits for a running transaction to hand its turn over (`running` stays counted). */
  private turn(state: { waiting: (() => void)[] }): Promise<void> {
    return new Promise((resolve, reject) => {
      const handOver = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        state.waiting.splice(state.waiting.indexOf(handOver), 1);
        reject(
          new AppError(
            'overloaded',
            'Too many of the organization’s changes are waiting for the account database; try again later',
            { headers: { 'retry-after': String(this.retryAfterSeconds) } },
          ),
        );
      }, this.maxWaitMs);
      state.waiting.push(handOver);
    });
  }
}

/** The turns of a process with a pool of `poolSize` connections to the account database. */
export function organizationTurnsFor(backend: AccountBackend, poolSize: number): OrganizationTurns {
  const { organizationShareOfPool, lockWaitMs, retryAfterSeconds } = limits.accountStore;
  const perOrganization =
    backend === 'postgres' ? Math.max(1, Math.floor(poolSize * organizationShareOfPool)) : Infinity;
  return new OrganizationTurns(perOrganization, lockWaitMs, retryAfterSeconds);
}
