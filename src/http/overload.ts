import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { limits } from '../limits.js';
import { AppError } from './problem.js';

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
    sampleInterval: limits.overload.sampleIntervalMs,
    retryAfter: limits.overload.retryAfterSeconds,
    pressureHandler: (request) => {
      if (request.url === '/health') return;
      throw new AppError('overloaded', 'The server is overloaded; retry later', {
        headers: { 'retry-after': String(limits.overload.retryAfterSeconds) },
      });
    },
  });
}
