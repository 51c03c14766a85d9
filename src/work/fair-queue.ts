/** Why a piece of work was not started: its organization has too much waiting, or it waited too long. */
export class QueueRefusal extends Error {
  constructor(
    readonly reason: 'organization_busy' | 'wait_too_long',
    message: string,
  ) {
    super(message);
    this.name = 'QueueRefusal';
  }
}

export interface FairQueueOptions {
  /** Pieces of work running at once, all organizations together. */
  slots: number;
  /** Pieces of work of one organization running at once. */
  perOrganization: number;
  /** Pieces of work of one organization waiting at once; the next is refused at once. */
  waitingPerOrganization: number;
  /** A piece of work not started within this is refused (its client would have given up). */
  maxWaitMs: number;
}

interface Waiting {
  start: () => void;
  timer: NodeJS.Timeout;
}

/**
 * Runs costly work with a concurrency budget per organization and fair turns between them: a
 * free slot goes to the organization, among those with work waiting and under their own budget,
 * that started work longest ago (round robin), never to whoever queued the most. So an organization sending many
 * costly requests waits for itself; another organization's request waits for at most one turn.
 */
export class FairQueue {
  private running = 0;
  private readonly runningBy = new Map<string, number>();
  private readonly waiting = new Map<string, Waiting[]>();
  /** When each organization with work running or waiting last started some: the one served
   * longest ago has the next turn. */
  private readonly served = new Map<string, number>();
  private clock = 0;

  constructor(private readonly options: FairQueueOptions) {}

  /** Work started or waiting: for metrics. */
  get size(): { running: number; waiting: number } {
    let waiting = 0;
    for (const list of this.waiting.values()) waiting += list.length;
    return { running: this.running, waiting };
  }

  run<T>(organization: string, work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = (): void => {
        this.running += 1;
        this.served.set(organization, ++this.clock);
        this.runningBy.set(organization, (this.runningBy.get(organization) ?? 0) + 1);
        // The slot is given back before the caller hears the outcome, so that what the caller
        // does next already finds it free.
        const release = (): void => {
          this.running -= 1;
          const left = (this.runningBy.get(organization) ?? 1) - 1;
          if (left > 0) this.runningBy.set(organization, left);
          else this.runningBy.delete(organization);
          if (left <= 0 && !this.waiting.has(organization)) this.served.delete(organization);
          this.next();
        };
        // Started on the event loop's next turn, not as a microtask: work that fails at once
        // (before it returns a promise) still gives its slot back, and between two pieces of work
        // that compute synchronously (statistics over rows in memory) the server reads the
        // requests that arrived meanwhile. As a chain of microtasks, one organization's queued
        // work ran back to back before another's request was even read (its wait grew with the
        // first one's queue: 750 ms behind nine).
        new Promise<void>((ready) => setImmediate(ready)).then(work).then(
          (value) => {
            release();
            resolve(value);
          },
          (error: unknown) => {
            release();
            // The work's own failure, passed on as it is.
            // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
            reject(error);
          },
        );
      };
      const queued = this.waiting.get(organization) ?? [];
      if (queued.length === 0 && this.mayStart(organization)) {
        start();
        return;
      }
      if (queued.length >= this.options.waitingPerOrganization) {
        reject(
          new QueueRefusal(
            'organization_busy',
            'Too much costly work of this organization is waiting; retry when some has finished',
          ),
        );
        return;
      }
      const entry: Waiting = {
        start,
        timer: setTimeout(() => {
          this.remove(organization, entry);
          reject(new QueueRefusal('wait_too_long', 'Costly work waited too long for its turn'));
        }, this.options.maxWaitMs),
      };
      queued.push(entry);
      this.waiting.set(organization, queued);
    });
  }

  private mayStart(organization: string): boolean {
    return (
      this.running < this.options.slots &&
      (this.runningBy.get(organization) ?? 0) < this.options.perOrganization
    );
  }

  private remove(organization: string, entry: Waiting): void {
    const queued = this.waiting.get(organization);
    if (!queued) return;
    const i = queued.indexOf(entry);
    if (i >= 0) queued.splice(i, 1);
    if (queued.length === 0) this.waiting.delete(organization);
    if (!this.runningBy.has(organization) && !this.waiting.has(organization)) {
      this.served.delete(organization);
    }
  }

  /** Gives free slots to the waiting organizations served longest ago, one piece each. */
  private next(): void {
    while (this.running < this.options.slots) {
      let turn: string | undefined;
      for (const organization of this.waiting.keys()) {
        if (!this.mayStart(organization)) continue;
        if (turn === undefined || this.lastServed(organization) < this.lastServed(turn)) {
          turn = organization;
        }
      }
      if (turn === undefined) return;
      const queued = this.waiting.get(turn) ?? [];
      const entry = queued.shift();
      if (queued.length === 0) this.waiting.delete(turn);
      if (!entry) return;
      clearTimeout(entry.timer);
      entry.start();
    }
  }

  private lastServed(organization: string): number {
    return this.served.get(organization) ?? 0;
  }
}
