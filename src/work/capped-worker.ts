import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AppError } from '../http/problem.js';
import { limits } from '../limits.js';

/** The argument a worker process is started with, so that its module knows to answer jobs. */
export const WORKER_ARGUMENT = '--propdata-worker';

/** What a worker module answers: the id of the job it answers, and its outcome. */
export interface WorkerAnswer {
  id: number;
  /** The worker's resident memory as it answers (`answerJobs` adds it). */
  residentBytes?: number;
}

/**
 * The V8 flags that cap a worker process: `heapMb` of old generation, and a JS stack of
 * `stackMb` less the margin V8 keeps below the thread's end (as Node does for worker threads).
 * The stack is the process's main thread, whose size the OS sets (8 MB on Linux by default).
 */
function workerFlags(heapMb: number, stackMb: number): string[] {
  return [`--max-old-space-size=${String(heapMb)}`, `--stack-size=${String(stackMb * 1024 - 192)}`];
}

/** Names of the server's secrets and the like: the account database's address (which may hold
 * its password), PostgreSQL's client settings, tokens, passwords. */
const SECRET_NAME = /^DATABASE_URL$|^PG|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

/**
 * The environment a worker gets: the server's without its secrets. A worker reads uploaded
 * files and needs none of the service's settings (`src/config.ts` reads them, in the server);
 * should a crafted file ever make one run code, it finds no credentials there.
 */
function workerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_NAME.test(name)));
}

/**
 * A process running `name` (a module next to `base`, the caller's `import.meta.url`) with at most
 * `heapMb` of heap and `stackMb` of stack. A process, not a thread: V8 may abort the whole process
 * when one allocation runs past the heap limit, and then only the worker goes.
 */
function startWorker(heapMb: number, base: string, name: string, stackMb: number): ChildProcess {
  const fromSource = base.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, base));
  // Running from source (tests, `npm run dev`): the worker has to compile TypeScript as well.
  const tsx = fromSource
    ? ['--import', pathToFileURL(createRequire(base).resolve('tsx')).href]
    : [];
  return fork(entry, [WORKER_ARGUMENT], {
    execArgv: [...tsx, ...workerFlags(heapMb, stackMb)],
    env: workerEnv(process.env),
    // Not the server's directory: a worker that dies of its heap aborts, and where the system
    // writes core dumps into the working directory, they go with the other temporary files.
    cwd: os.tmpdir(),
    // Structured clone: byte arrays go across as they are, not as JSON.
    serialization: 'advanced',
    // Its standard error is kept (the end of it) to say why it died.
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
}

/**
 * The worker module's side: answers each job posted by `CappedWorker` with `handle`'s answer, and
 * ends when its owner is gone. Does nothing unless this process was started as a worker.
 */
export function answerJobs(
  // `never`: each worker module's handler takes its own request type, which comes from its owner.
  handle: (request: never) => Promise<WorkerAnswer>,
): void {
  const send = process.send?.bind(process);
  if (!send || !process.argv.includes(WORKER_ARGUMENT)) return;
  process.on('message', (request: unknown) => {
    void handle(request as never).then((answer) =>
      send({ ...answer, residentBytes: process.memoryUsage.rss() }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}

/**
 * A job whose worker stopped without answering, killed from outside (the system's out-of-memory
 * killer, an operator) or crashed: `503` with `Retry-After`, since the next job gets a fresh
 * worker; the worker's last words (`why`) go to the log only.
 */
export function workerStopped(what: string, why: string): AppError {
  return new AppError('overloaded', `The ${what} stopped before it answered; try again`, {
    headers: { 'retry-after': String(limits.work.workerStoppedRetryAfterSeconds) },
    cause: new Error(`${what} exited: ${why}`),
  });
}

/** The most of a worker's standard error kept to say why it died. */
const STDERR_KEPT = 4096;

export interface CappedWorkerSpec<Answer extends WorkerAnswer, Result> {
  /** The worker module: `name` next to `base` (the owner's `import.meta.url`). */
  base: string;
  name: string;
  heapMb: number;
  stackMb: number;
  /** How long one job may take before the worker is discarded. */
  timeoutMs: number;
  /**
   * A worker holding more than this resident after a job is replaced. A job of large files (a
   * report at the limits takes 100 MB in and 100 MB out) leaves hundreds of MB that V8 and the
   * allocator give back late or never, and an idle worker would hold them.
   */
  residentMb: number;
  /** The job's result from the worker's answer; throws for an answer that is a failure. */
  settle: (answer: Answer) => Result;
  /** The errors a job ends with when the worker cannot answer it. */
  errors: {
    closed: string;
    /** The worker died for another reason than its heap; `why` is the end of its standard error. */
    exited: (why: string) => Error;
    timedOut: () => Error;
    /** Out of heap; without it, `exited`. */
    outOfMemory?: () => Error;
  };
}

interface Running {
  process: ChildProcess;
  stderr: string;
}

/**
 * One worker process with a capped heap and stack, running one job at a time with a deadline (the
 * owner queues them). A worker that dies, exits or misses the deadline is killed and the job
 * fails; the next job starts a fresh worker, so one hostile or broken input costs only its own job.
 */
export class CappedWorker<Request extends WorkerAnswer, Answer extends WorkerAnswer, Result> {
  private worker: Running | undefined;
  private nextId = 1;
  private closed = false;

  constructor(private readonly spec: CappedWorkerSpec<Answer, Result>) {}

  /** The running worker's process id, if one runs (for diagnostics and tests). */
  get processId(): number | undefined {
    return this.worker?.process.pid;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await stop(worker.process);
  }

  /** Sends `message` (a copy of it) to the worker and waits for its answer. */
  run(message: Omit<Request, 'id'>): Promise<Result> {
    const worker = this.workerFor();
    const child = worker.process;
    const id = this.nextId++;
    const { settle, errors } = this.spec;
    return new Promise<Result>((resolve, reject) => {
      const finish = (outcome: () => void): void => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('error', onError);
        child.off('close', onExit);
        outcome();
      };
      const onMessage = (answer: Answer): void => {
        if (answer.id !== id) return;
        if ((answer.residentBytes ?? 0) > this.spec.residentMb * 2 ** 20) this.discard(worker);
        finish(() => {
          try {
            resolve(settle(answer));
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      };
      const onError = (error: Error): void => {
        this.discard(worker);
        finish(() => {
          reject(error);
        });
      };
      const onExit = (): void => {
        this.discard(worker);
        finish(() => {
          const outOfMemory = /heap out of memory|Reached heap limit/.test(worker.stderr);
          reject(
            outOfMemory && errors.outOfMemory
              ? errors.outOfMemory()
              : errors.exited(worker.stderr.trim()),
          );
        });
      };
      const timer = setTimeout(() => {
        this.discard(worker);
        finish(() => {
          reject(errors.timedOut());
        });
      }, this.spec.timeoutMs);
      child.on('message', onMessage);
      child.on('error', onError);
      // 'close', not 'exit': its standard error has been read to the end by then.
      child.on('close', onExit);
      child.send({ id, ...message });
    });
  }

  private workerFor(): Running {
    if (this.closed) throw new Error(this.spec.errors.closed);
    if (!this.worker) {
      const { heapMb, base, name, stackMb } = this.spec;
      const running: Running = { process: startWorker(heapMb, base, name, stackMb), stderr: '' };
      const stderr = running.process.stderr as Socket | null;
      stderr?.setEncoding('utf8').on('data', (text: string) => {
        running.stderr = (running.stderr + text).slice(-STDERR_KEPT);
      });
      // A job sent as the worker dies fails through its own listeners; none must be unhandled.
      running.process.on('error', () => undefined);
      // One that dies between jobs (killed from outside) is replaced at the next job.
      running.process.once('exit', () => {
        if (this.worker === running) this.worker = undefined;
      });
      // An idle worker must not keep the process alive (a job's deadline timer does meanwhile).
      running.process.unref();
      running.process.channel?.unref();
      stderr?.unref();
      this.worker = running;
    }
    return this.worker;
  }

  private discard(worker: Running): void {
    if (this.worker === worker) this.worker = undefined;
    worker.process.kill('SIGKILL');
  }
}

/** Kills `child` and waits until it is gone. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
    // Held until it is gone: whoever waits for this must not see the event loop end first.
    child.ref();
    child.kill('SIGKILL');
  });
}
