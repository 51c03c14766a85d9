import { limits } from '../limits.js';
import { CappedWorker, workerStopped } from '../work/capped-worker.js';
import { FairQueue } from '../work/fair-queue.js';
import { UploadBudget } from '../work/upload-budget.js';
import type { AttachmentFacts } from './image-inspection.js';
import { PdfRefusal, type PdfFacts } from './pdf-inspection.js';
import type { InspectionAnswer, InspectionKind, InspectionRequest } from './pdf-worker.js';

export interface InspectorLimits {
  heapMb: number;
  timeoutMs: number;
  /** Inspections of one organization waiting at once, and how long one may wait. */
  waitingPerOrganization?: number;
  maxWaitMs?: number;
  /** Bytes of one organization's uploads under way at once (`UploadBudget`). */
  uploadBytesPerOrganization?: number;
  /** Workers checking files at once, an organization using one at a time. */
  workers?: number;
}

/**
 * Parses uploaded PDFs in worker processes (`limits.covers.pdfCheckWorkers`), each one file at a
 * time, an organization one worker at a time, organizations taking turns (a fair queue: one
 * organization's large files wait for each other, not another's small one, which takes another
 * worker), so that a hostile file can exhaust only its worker: its heap is capped
 * (`limits.covers.pdfWorkerHeapMb`) and each inspection has a deadline
 * (`limits.covers.pdfInspectionMs`); tests pass smaller ones. A worker that runs out of memory or
 * time is discarded and the file refused; the next inspection there starts a fresh one.
 */
export class PdfInspector {
  readonly queue: FairQueue;
  /** The uploads whose bodies are read and checked here: admitted before they are read. */
  readonly uploads: UploadBudget;
  /** The workers no inspection is using: the queue's slots are as many as the workers. */
  private readonly idle: CappedWorker<
    InspectionRequest,
    InspectionAnswer,
    PdfFacts | AttachmentFacts
  >[];
  private readonly workers: readonly CappedWorker<
    InspectionRequest,
    InspectionAnswer,
    PdfFacts | AttachmentFacts
  >[];

  constructor(
    bounds: InspectorLimits = {
      heapMb: limits.covers.pdfWorkerHeapMb,
      timeoutMs: limits.covers.pdfInspectionMs,
    },
  ) {
    const count = bounds.workers ?? limits.covers.pdfCheckWorkers;
    this.queue = new FairQueue({
      slots: count,
      perOrganization: 1,
      waitingPerOrganization:
        bounds.waitingPerOrganization ?? limits.covers.pdfChecksWaitingPerOrganization,
      maxWaitMs: bounds.maxWaitMs ?? limits.covers.pdfCheckMaxWaitMs,
    });
    this.uploads = new UploadBudget(
      bounds.uploadBytesPerOrganization ?? limits.uploads.bytesUnderWayPerOrganization,
    );
    const worker = () =>
      new CappedWorker({
        base: import.meta.url,
        name: 'pdf-worker',
        heapMb: bounds.heapMb,
        stackMb: limits.covers.pdfWorkerStackMb,
        timeoutMs: bounds.timeoutMs,
        residentMb: limits.covers.pdfWorkerResidentMb,
        settle: (answer: InspectionAnswer) => {
          if ('facts' in answer) return answer.facts;
          if ('refusal' in answer) throw new PdfRefusal(answer.refusal);
          throw new Error(`PDF inspection failed: ${answer.failure}`);
        },
        errors: {
          closed: 'PDF inspector is closed',
          exited: (why) => workerStopped('file check', why),
          timedOut: () => new PdfRefusal('is too complex to read (time limit reached)', true),
          outOfMemory: () => new PdfRefusal('is too complex to read (memory limit reached)', true),
        },
      });
    this.workers = Array.from({ length: count }, worker);
    this.idle = [...this.workers];
  }

  /** Inspects a cover PDF in `organizationId`'s turn. */
  inspect(bytes: Uint8Array, organizationId: string): Promise<PdfFacts> {
    return this.queue.run(organizationId, async () => {
      const facts = await this.run(bytes, 'cover');
      if ('contentType' in facts) throw new Error('a cover check answered an attachment’s facts');
      return facts;
    });
  }

  /**
   * Checks a dossier attachment in `organizationId`'s turn: a PNG, JPEG or PDF recognised by
   * content (image-inspection).
   */
  inspectAttachment(bytes: Uint8Array, organizationId: string): Promise<AttachmentFacts> {
    return this.queue.run(organizationId, async () => {
      const facts = await this.run(bytes, 'attachment');
      if (!('contentType' in facts))
        throw new Error('an attachment check answered a cover’s facts');
      return facts;
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
  }

  /** Runs in a slot of the queue, so a worker is idle (a worker starts its process on first use). */
  private async run(bytes: Uint8Array, kind: InspectionKind): Promise<PdfFacts | AttachmentFacts> {
    const worker = this.idle.pop();
    if (!worker) throw new Error('no idle checking worker in a slot of the queue');
    try {
      // The worker gets a copy: the caller still needs the bytes to store them.
      return await worker.run({ kind, bytes });
    } finally {
      this.idle.push(worker);
    }
  }
}
