import { answerJobs } from '../../../work/capped-worker.js';
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

// The worker process's entry: renders reports one at a time for the server. The fonts are read
// on the first render and kept for the worker's life.
answerJobs((request: RenderRequest): Promise<RenderAnswer> =>
  renderReport(request.model).then(
    (bytes) => ({ id: request.id, bytes }),
    (error: unknown) =>
      error instanceof UnusableFile
        ? { id: request.id, unusable: error.message }
        : {
            id: request.id,
            failure: error instanceof Error ? (error.stack ?? error.message) : String(error),
          },
  ),
);
