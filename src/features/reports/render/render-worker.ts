import { parentPort } from 'node:worker_threads';
import type { ReportModel } from '../model.js';
import { UnusableFile } from './merge.js';
import { renderReport } from './render.js';

/** One render request from `ReportRenderer`, and its answer. */
export interface RenderRequest {
  id: number;
  model: ReportModel;
}
export type RenderAnswer =
  | { id: number; bytes: Uint8Array }
  | { id: number; unusable: string }
  | { id: number; failure: string };

// The worker thread's entry: renders reports one at a time for the main thread. The fonts are
// read on the first render and kept for the worker's life.
parentPort?.on('message', (request: RenderRequest) => {
  const port = parentPort;
  if (!port) return;
  renderReport(request.model).then(
    (bytes) => {
      port.postMessage({ id: request.id, bytes } satisfies RenderAnswer, [
        bytes.buffer as ArrayBuffer,
      ]);
    },
    (error: unknown) => {
      port.postMessage(
        error instanceof UnusableFile
          ? ({ id: request.id, unusable: error.message } satisfies RenderAnswer)
          : ({
              id: request.id,
              failure: error instanceof Error ? (error.stack ?? error.message) : String(error),
            } satisfies RenderAnswer),
      );
    },
  );
});
