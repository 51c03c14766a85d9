import { Worker } from 'node:worker_threads';

/**
 * A worker thread running `name` (a module next to `base`, the caller's `import.meta.url`) with
 * at most `heapMb` of heap, and `stackMb` of stack if given (else Node's default, 4 MB).
 */
export function startWorker(heapMb: number, base: string, name: string, stackMb?: number): Worker {
  const options = {
    resourceLimits: {
      maxOldGenerationSizeMb: heapMb,
      ...(stackMb === undefined ? {} : { stackSizeMb: stackMb }),
    },
  };
  if (base.endsWith('.ts')) {
    // Running from source (tests, `npm run dev`): the worker has to compile TypeScript as well.
    const entry = JSON.stringify(new URL(`./${name}.ts`, base).href);
    return new Worker(
      `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${entry}); });`,
      { ...options, eval: true },
    );
  }
  return new Worker(new URL(`./${name}.js`, base), options);
}

/** What a worker module answers: the id of the job it answers, and its outcome. */
export interface WorkerAnswer {
  id: number;
}

export interface CappedWorkerSpec<Answer extends WorkerAnswer, Result> {
  /** The worker module: `name` next to `base` (the owner's `import.meta.url`). */
  base: string;
  name: string;
  heapMb: number;
  /** The worker's stack, if not Node's default. */
  stackMb?: number;
  /** How long one job may take before the worker is discarded. */
  timeoutMs: number;
  /** The job's result from the worker's answer; throws for an answer that is a failure. */
  settle: (answer: Answer) => Result;
  /** The errors a job ends with when the worker cannot answer it. */
  errors: {
    closed: string;
    exited: string;
    timedOut: () => Error;
    /** Out of heap; without it the worker's own error is passed on. */
    outOfMemory?: () => Error;
  };
}

/**
 * One worker thread with a capped heap, running one job at a time with a deadline (the owner
 * queues them). A worker that fails, exits or misses the deadline is discarded and the job fails;
 * the next job starts a fresh worker, so one hostile or broken input costs only its own job.
 */
export class CappedWorker<Request extends WorkerAnswer, Answer extends WorkerAnswer, Result> {
  private worker: Worker | undefined;
  private nextId = 1;
  private closed = false;

  constructor(private readonly spec: CappedWorkerSpec<Answer, Result>) {}

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  /** Posts `message` (a copy of it) to the worker and waits for its answer. */
  run(message: Omit<Request, 'id'>): Promise<Result> {
    const worker = this.workerFor();
    const id = this.nextId++;
    const { settle, errors } = this.spec;
    return new Promise<Result>((resolve, reject) => {
      const finish = (outcome: () => void): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        outcome();
      };
      const onMessage = (answer: Answer): void => {
        if (answer.id !== id) return;
        finish(() => {
          try {
            resolve(settle(answer));
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      };
      const onError = (error: Error & { code?: string }): void => {
        this.discard(worker);
        finish(() => {
          const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY' && errors.outOfMemory;
          reject(outOfMemory ? outOfMemory() : error);
        });
      };
      const onExit = (): void => {
        this.discard(worker);
        finish(() => {
          reject(new Error(errors.exited));
        });
      };
      const timer = setTimeout(() => {
        this.discard(worker);
        finish(() => {
          reject(errors.timedOut());
        });
      }, this.spec.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, ...message });
    });
  }

  private workerFor(): Worker {
    if (this.closed) throw new Error(this.spec.errors.closed);
    if (!this.worker) {
      const worker = startWorker(
        this.spec.heapMb,
        this.spec.base,
        this.spec.name,
        this.spec.stackMb,
      );
      // An idle worker must not keep the process alive.
      worker.unref();
      this.worker = worker;
    }
    return this.worker;
  }

  private discard(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
  }
}
