import type { FastifyInstance, FastifyRequest } from 'fastify';
import { limits } from '../limits.js';
import { AppError } from './problem.js';

/** Per request: aborted once the deadline has answered it (see `answeredLate`). */
const answered = new WeakMap<FastifyRequest, AbortSignal>();
const NEVER = new AbortController().signal;

/**
 * Aborted once `request` has been answered `503` by the answer deadline: a handler still at
 * work must then store nothing, since the client was told the request failed and may send it
 * again (an upload stored after its 503 would be stored twice).
 */
export function answeredLate(request: FastifyRequest): AbortSignal {
  return answered.get(request) ?? NEVER;
}

/** Throws where `signal` says the request has been answered already, before anything is stored. */
export function refuseWhenAnswered(signal: AbortSignal): void {
  if (signal.aborted) {
    throw new AppError(
      'overloaded',
      'The request was answered already (not in time); nothing was stored',
    );
  }
}

/**
 * Every request must be answered (its response started) within `answerMs` of its arrival, or it
 * is answered `503 overloaded` and its connection closed. Every wait the service knows of is
 * bounded well within it (`limits.timeouts.answerMs`); this bounds the ones it does not know
 * of: a form parser that waited for ever for a part to be read had left uploads unanswered for
 * good, Node's request deadline not firing since the whole request had arrived, each holding a
 * connection and its organization's upload allowance.
 */
export function registerAnswerDeadline(app: FastifyInstance, answerMs: number): void {
  app.addHook('onRequest', (request, reply, done) => {
    const late = new AbortController();
    answered.set(request, late.signal);
    const timer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent) return;
      late.abort();
      request.log.error(
        { answerMs },
        'request not answered in time; answered 503, connection closed',
      );
      void reply.send(
        new AppError(
          'overloaded',
          `The request was not answered within ${String(answerMs / 1000)} s; try again later`,
          {
            headers: {
              connection: 'close',
              'retry-after': String(limits.overload.retryAfterSeconds),
            },
          },
        ),
      );
    }, answerMs);
    timer.unref();
    reply.raw.once('close', () => {
      clearTimeout(timer);
    });
    done();
  });
}
