import { AppError } from '../../../http/problem.js';
import { limits } from '../../../limits.js';
import { CappedWorker, workerStopped } from '../../../work/capped-worker.js';
import type { ReportModel } from '../model.js';
import type { RenderAnswer, RenderRequest } from './render-worker.js';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Renders reports in a worker process, so that the ~0.1–0.3 s of CPU a report takes never
 * blocks the event loop that answers every other request. One report at a time, in order; the
 * worker's heap is capped and each render has a deadline (`limits.reports`). A worker that fails
 * is discarded and the next render starts a fresh one.
 */
export class ReportRenderer {
  private readonly worker = new CappedWorker<RenderRequest, RenderAnswer, Uint8Array>({
    base: import.meta.url,
    name: 'render-worker',
    heapMb: limits.reports.workerHeapMb,
    stackMb: limits.reports.workerStackMb,
    timeoutMs: limits.reports.renderMs,
    residentMb: limits.reports.workerResidentMb,
    settle: (answer) => {
      if ('bytes' in answer) return answer.bytes;
      if ('unusable' in answer) {
        throw new AppError(
          'conflict',
          `${capitalized(answer.unusable)}: delete it and upload it again`,
        );
      }
      throw new Error(`report rendering failed: ${answer.failure}`);
    },
    errors: {
      closed: 'report renderer is closed',
      exited: (why) => workerStopped('report worker', why),
      // A report's work is bounded (attachments' print versions are made at upload): past the
      // deadline the machine is overloaded, which a later try may not find.
      timedOut: () =>
        new AppError(
          'overloaded',
          `The report took longer than ${String(limits.reports.renderMs / 1000)} s to render; try again later`,
          { headers: { 'retry-after': String(limits.reports.timedOutRetryAfterSeconds) } },
        ),
    },
  });
  private queue: Promise<unknown> = Promise.resolve();

  render(model: ReportModel): Promise<Uint8Array> {
    const run = this.queue.then(() => this.worker.run({ model }));
    this.queue = run.catch(() => undefined);
    return run;
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
