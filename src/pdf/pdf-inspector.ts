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
}

/**
 * Parses uploaded PDFs in a worker process, one at a time, organizations taking turns (a fair
 * queue: one organization's large files wait for each other, not another's small one), so that a hostile file can exhaust only
 * the worker: its heap is capped (`limits.covers.pdfWorkerHeapMb`) and each inspection has a
 * deadline (`limits.covers.pdfInspectionMs`); tests pass smaller ones. A worker that runs out of memory or time is
 * discarded and the file refused; the next inspection starts a fresh one.
 */
export class PdfInspector {
  readonly queue: FairQueue;
  /** The uploads whose bodies are read and checked here: admitted before they are read. */
  readonly uploads: UploadBudget;
  private readonly worker: CappedWorker<
    InspectionRequest,
    InspectionAnswer,
    PdfFacts | AttachmentFacts
  >;

  constructor(
    bounds: InspectorLimits = {
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
    this.uploads = new UploadBudget(
      bounds.uploadBytesPerOrganization ?? limits.uploads.bytesUnderWayPerOrganization,
    );
    this.worker = new CappedWorker({
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

  close(): Promise<void> {
    return this.worker.close();
  }

  private run(bytes: Uint8Array, kind: InspectionKind): Promise<PdfFacts | AttachmentFacts> {
    // The worker gets a copy: the caller still needs the bytes to store them.
    return this.worker.run({ kind, bytes });
  }
}
