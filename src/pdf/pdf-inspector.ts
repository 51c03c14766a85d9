import { Worker } from 'node:worker_threads';
import { limits } from '../limits.js';
import { FairQueue } from '../work/fair-queue.js';
import type { AttachmentFacts } from './image-inspection.js';
import { PdfRefusal, type PdfFacts } from './pdf-inspection.js';
import type { InspectionAnswer, InspectionKind, InspectionRequest } from './pdf-worker.js';

export interface InspectorLimits {
  heapMb: number;
  timeoutMs: number;
  /** Inspections of one organization waiting at once, and how long one may wait. */
  waitingPerOrganization?: number;
  maxWaitMs?: number;
}

/**
 * A worker thread running `name` (a module next to `base`, the caller's `import.meta.url`) with
 * at most `heapMb` of heap.
 */
export function startWorker(
  heapMb: number,
  base: string = import.meta.url,
  name = 'pdf-worker',
): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: heapMb } };
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

/**
 * Parses uploaded PDFs in a worker thread, one at a time, organizations taking turns (a fair
 * queue: one organization's large files wait for each other, not another's small one), so that a hostile file can exhaust only
 * the worker: its heap is capped (`limits.covers.pdfWorkerHeapMb`) and each inspection has a
 * deadline (`limits.covers.pdfInspectionMs`); tests pass smaller ones. A worker that runs out of memory or time is
 * discarded and the file refused; the next inspection starts a fresh one.
 */
export class PdfInspector {
  private worker: Worker | undefined;
  readonly queue: FairQueue;
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly bounds: InspectorLimits = {
      heapMb: limits.covers.pdfWorkerHeapMb,
      timeoutMs: limits.covers.pdfInspectionMs,
    },
  ) {
    this.queue = new FairQueue({
      slots: 1,
      perOrganization: 1,
      waitingPerOrganization:
        bounds.waitingPerOrganization ?? limits.covers.pdfChecksWaitingPerOrganization,
      maxWaitMs: bounds.maxWaitMs ?? limits.covers.pdfCheckMaxWaitMs,
    });
  }

  /** Inspects a cover PDF in `organizationId`'s turn. */
  inspect(bytes: Uint8Array, organizationId: string): Promise<PdfFacts> {
    return this.queue.run(organizationId, () => this.run(bytes, 'cover')) as Promise<PdfFacts>;
  }

  /**
   * Checks a dossier attachment in `organizationId`'s turn: a PNG, JPEG or PDF recognised by
   * content (image-inspection).
   */
  inspectAttachment(bytes: Uint8Array, organizationId: string): Promise<AttachmentFacts> {
    return this.queue.run(organizationId, () =>
      this.run(bytes, 'attachment'),
    ) as Promise<AttachmentFacts>;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private workerFor(): Worker {
    if (this.closed) throw new Error('PDF inspector is closed');
    if (!this.worker) {
      const worker = startWorker(this.bounds.heapMb);
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

  private run(bytes: Uint8Array, kind: InspectionKind): Promise<PdfFacts | AttachmentFacts> {
    const worker = this.workerFor();
    const id = this.nextId++;
    return new Promise<PdfFacts | AttachmentFacts>((resolve, reject) => {
      const finish = (outcome: () => void): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        outcome();
      };
      const onMessage = (answer: InspectionAnswer): void => {
        if (answer.id !== id) return;
        finish(() => {
          if ('facts' in answer) resolve(answer.facts);
          else if ('refusal' in answer) reject(new PdfRefusal(answer.refusal));
          else reject(new Error(`PDF inspection failed: ${answer.failure}`));
        });
      };
      const onError = (error: Error & { code?: string }): void => {
        this.discard(worker);
        finish(() => {
          reject(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new PdfRefusal('is too complex to read (memory limit reached)')
              : error,
          );
        });
      };
      const onExit = (): void => {
        this.discard(worker);
        finish(() => {
          reject(new Error('PDF inspection worker exited'));
        });
      };
      const timer = setTimeout(() => {
        this.discard(worker);
        finish(() => {
          reject(new PdfRefusal('is too complex to read (time limit reached)'));
        });
      }, this.bounds.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      // The worker gets a copy: the caller still needs the bytes to store them.
      worker.postMessage({ id, kind, bytes } satisfies InspectionRequest);
    });
  }
}
