import { answerJobs } from '../work/capped-worker.js';
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

// The worker process's entry: checks uploaded files one at a time for the server.
answerJobs((request: InspectionRequest): Promise<InspectionAnswer> =>
  inspect(request).then(
    (facts) => ({ id: request.id, facts }),
    (error: unknown) =>
      error instanceof PdfRefusal
        ? { id: request.id, refusal: error.reason }
        : { id: request.id, failure: error instanceof Error ? error.message : String(error) },
  ),
);
