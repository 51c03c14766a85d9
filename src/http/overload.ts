import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { limits } from '../limits.js';
import { AppError } from './problem.js';
import { routedPath } from './routed-path.js';

/** Whether a request routed by `url` (`routedPath`) is refused while the server sheds load: all
 * but liveness. */
export const isShedUnderLoad = (url: string): boolean => url !== '/health';

/**
 * Sheds load when the event loop lags: a new request gets `503 overloaded` with `Retry-After`
 * at once rather than a slow answer after its client gave up. Liveness (`/health`) is always
 * answered, so an orchestrator does not kill a process that is merely busy.
 */
export async function registerOverloadProtection(
  app: FastifyInstance,
  maxEventLoopDelayMs: number,
): Promise<void> {
  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    // under-pressure counts a sample window in which the loop never ran as an infinite lag. With
    // a window at least as long as the limit, such a window means the loop really was blocked
    // that long; with a shorter one, a single 300 ms task would shed requests under a 1 s limit.
    sampleInterval: Math.max(limits.overload.sampleIntervalMs, maxEventLoopDelayMs),
    retryAfter: limits.overload.retryAfterSeconds,
    pressureHandler: (request) => {
      if (!isShedUnderLoad(routedPath(request))) return;
      throw new AppError('overloaded', 'The server is overloaded; retry later', {
        headers: { 'retry-after': String(limits.overload.retryAfterSeconds) },
      });
    },
  });
}
