import type { FastifyInstance, FastifyRequest } from 'fastify';
import { limits } from '../limits.js';
import { AppError } from './problem.js';

/**
 * Whether a request still at work may store what it did. Once the answer deadline has answered
 * a request `503`, the client was told it failed and may send it again: what the handler would
 * store after that must not be stored (an upload stored after its 503 would be stored twice).
 * A handler about to store `claim`s the answer inside its transaction, before writing: after
 * that the deadline leaves the request to its handler, which answers it (success, or an error
 * if the transaction fails) within the transaction's few milliseconds.
 */
export class AnswerClaim {
  private state: 'open' | 'claimed' | 'answered' = 'open';
  /** When the deadline answers (epoch ms); never where no deadline is registered. */
  deadlineAt = Infinity;

  /** Whether work that may take `ms` ends before the deadline answers, if started now. */
  hasTimeFor(ms: number, now = Date.now()): boolean {
    return now + ms < this.deadlineAt;
  }

  /** The deadline answered the request: the rest of its work is for nothing. */
  get answered(): boolean {
    return this.state === 'answered';
  }

  /** Keeps the answer for the handler, or throws if the deadline has answered already. */
  claim(): void {
    if (this.state === 'answered') {
      throw new AppError(
        'overloaded',
        'The request was answered already (not in time); nothing was stored',
      );
    }
    this.state = 'claimed';
  }

  /** For the deadline: answers the request unless its handler has claimed the answer. */
  answerLate(): boolean {
    if (this.state === 'claimed') return false;
    this.state = 'answered';
    return true;
  }
}

const claims = new WeakMap<FastifyRequest, AnswerClaim>();

/** The answer claim of `request` (a fresh one where no deadline is registered). */
export function answerClaim(request: FastifyRequest): AnswerClaim {
  let claim = claims.get(request);
  if (!claim) {
    claim = new AnswerClaim();
    claims.set(request, claim);
  }
  return claim;
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
    const claim = answerClaim(request);
    claim.deadlineAt = Date.now() + answerMs;
    const timer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent || !claim.answerLate()) return;
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
