import { parentPort } from 'node:worker_threads';
import { inspectAttachment, type AttachmentFacts } from './image-inspection.js';
import { inspectPdf, PdfRefusal, type PdfFacts } from './pdf-inspection.js';

/** What the worker is asked to do with the bytes: check a cover, or a dossier attachment. */
export type InspectionKind = 'cover' | 'attachment';

/** One inspection request from `PdfInspector`, and its answer. */
export interface InspectionRequest {
  id: number;
  kind?: InspectionKind;
  bytes: Uint8Array;
}
export type InspectionAnswer =
  | { id: number; facts: PdfFacts | AttachmentFacts }
  | { id: number; refusal: string }
  | { id: number; failure: string };

function inspect(request: InspectionRequest): Promise<PdfFacts | AttachmentFacts> {
  return request.kind === 'attachment'
    ? inspectAttachment(request.bytes)
    : inspectPdf(request.bytes);
}

// The worker thread's entry: checks uploaded files one at a time for the main thread.
parentPort?.on('message', (request: InspectionRequest) => {
  const port = parentPort;
  if (!port) return;
  inspect(request).then(
    (facts) => {
      port.postMessage({ id: request.id, facts } satisfies InspectionAnswer);
    },
    (error: unknown) => {
      const answer: InspectionAnswer =
        error instanceof PdfRefusal
          ? { id: request.id, refusal: error.reason }
          : { id: request.id, failure: error instanceof Error ? error.message : String(error) };
      port.postMessage(answer);
    },
  );
});
