import type { Worker } from 'node:worker_threads';
import { limits } from '../../../limits.js';
import { startWorker } from '../../../pdf/pdf-inspector.js';
import type { ReportModel } from '../model.js';
import type { RenderAnswer, RenderRequest } from './render-worker.js';

/**
 * Renders reports in a worker thread, so that the ~0.1–0.3 s of CPU a report takes never
 * blocks the event loop that answers every other request. One report at a time, in order; the
 * worker's heap is capped and each render has a deadline (`limits.reports`). A worker that fails
 * is discarded and the next render starts a fresh one.
 */
export class ReportRenderer {
  private worker: Worker | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private closed = false;

  render(model: ReportModel): Promise<Uint8Array> {
    const run = this.queue.then(() => this.run(model));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private workerFor(): Worker {
    if (this.closed) throw new Error('report renderer is closed');
    if (!this.worker) {
      this.worker = startWorker(limits.reports.workerHeapMb, import.meta.url, 'render-worker');
      // An idle worker must not keep the process alive.
      this.worker.unref();
    }
    return this.worker;
  }

  private discard(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
  }

  private run(model: ReportModel): Promise<Uint8Array> {
    const worker = this.workerFor();
    const id = this.nextId++;
    return new Promise<Uint8Array>((resolve, reject) => {
      const finish = (outcome: () => void): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        outcome();
      };
      const onMessage = (answer: RenderAnswer): void => {
        if (answer.id !== id) return;
        finish(() => {
          if ('bytes' in answer) resolve(answer.bytes);
          else reject(new Error(`report rendering failed: ${answer.failure}`));
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
          reject(new Error('report worker exited'));
        });
      };
      const timer = setTimeout(() => {
        this.discard(worker);
        finish(() => {
          reject(new Error('report rendering took longer than its deadline'));
        });
      }, limits.reports.renderMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, model } satisfies RenderRequest);
    });
  }
}
