import cluster, { type Worker } from 'node:cluster';
import { print } from './context.js';

/** A worker that dies is replaced, but not more often than this, so a crash loop cannot spin. */
const RESTART_DELAY_MS = 1000;
/** On SIGTERM/SIGINT the workers get this long to finish their requests before being killed. */
const STOP_GRACE_MS = 15_000;

/**
 * Runs `count` worker processes sharing one listening port (node:cluster hands connections to
 * them in turn). The primary serves nothing itself: it replaces workers that die and, on
 * SIGTERM/SIGINT, stops them gracefully. Each worker runs the normal `serve` path.
 */
export function superviseWorkers(count: number): Promise<void> {
  let stopping = false;
  const fork = () => cluster.fork({ PROPDATA_WORKER: '1' });
  for (let i = 0; i < count; i++) fork();
  // Replacements waiting for their delay. The timers keep the process alive: when every worker
  // has died at once, they are all that does (the workers' channels and the shared listening
  // handle are gone), and an unref'd one had let the supervisor exit with nothing serving.
  const restarts = new Set<NodeJS.Timeout>();
  // A worker that exits by itself has no signal (null), whatever the type says.
  cluster.on('exit', (worker: Worker, code: number, signal: string | null) => {
    if (stopping) return;
    print(
      `propdata: worker ${String(worker.process.pid)} exited (${signal ?? String(code)}); starting another`,
    );
    const restart = setTimeout(() => {
      restarts.delete(restart);
      fork();
    }, RESTART_DELAY_MS);
    restarts.add(restart);
  });
  return new Promise((resolve) => {
    const stop = () => {
      if (stopping) return;
      stopping = true;
      for (const restart of restarts) clearTimeout(restart);
      restarts.clear();
      const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
      if (workers.length === 0) resolve();
      let left = workers.length;
      const killer = setTimeout(() => {
        for (const w of workers) w.process.kill('SIGKILL');
      }, STOP_GRACE_MS);
      killer.unref();
      for (const worker of workers) {
        worker.once('exit', () => {
          left -= 1;
          if (left === 0) {
            clearTimeout(killer);
            resolve();
          }
        });
        worker.process.kill('SIGTERM');
      }
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

export const isWorker = (): boolean => cluster.isWorker;
