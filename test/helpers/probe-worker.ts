import { writeSync } from 'node:fs';
import { answerJobs, type WorkerAnswer } from '../../src/work/capped-worker.js';

/** What the probe worker is asked to do: answer, name its environment, exit, fill its heap, or never answer. */
export interface ProbeRequest {
  id: number;
  act: 'echo' | 'env' | 'die' | 'allocate' | 'spin';
  bytes?: Uint8Array;
}
export interface ProbeAnswer extends WorkerAnswer {
  id: number;
  pid: number;
  /** The bytes it got, as it got them. */
  bytes?: Uint8Array;
  /** The names in its environment (`env`). */
  environment?: string[];
}

// A worker module for the tests of `CappedWorker` (src/work/capped-worker.test.ts).
answerJobs((request: ProbeRequest): Promise<ProbeAnswer> => {
  switch (request.act) {
    case 'die':
      // Written at once: the process ends before an asynchronous write would be.
      writeSync(2, 'probe worker: dying as asked\n');
      process.exit(70);
      break;
    case 'allocate': {
      // Past any capped heap: a V8 fatal error, which ends the process it happens in.
      const kept: number[][] = [];
      for (;;) kept.push(new Array<number>(1_000_000).fill(kept.length));
    }
    case 'spin':
      for (;;);
    case 'env':
      return Promise.resolve({
        id: request.id,
        pid: process.pid,
        environment: Object.keys(process.env),
      });
    case 'echo':
      break;
  }
  return Promise.resolve({ id: request.id, pid: process.pid, bytes: request.bytes });
});
