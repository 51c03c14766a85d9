import { parentPort } from 'node:worker_threads';
import { inspectPdf, PdfRefusal } from './pdf-inspection.js';

/** One inspection request from `PdfInspector`, and its answer. */
export interface InspectionRequest {
  id: number;
  bytes: Uint8Array;
}
export type InspectionAnswer =
  { id: number; pages: number } | { id: number; refusal: string } | { id: number; failure: string };

// The worker thread's entry: parses PDFs one at a time for the main thread.
parentPort?.on('message', (request: InspectionRequest) => {
  const port = parentPort;
  if (!port) return;
  inspectPdf(request.bytes).then(
    ({ pages }) => {
      port.postMessage({ id: request.id, pages } satisfies InspectionAnswer);
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
