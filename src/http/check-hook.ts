import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * A request hook (`onRequest`, `preValidation`) that runs `check`, which throws the refusal: the
 * request is answered with it and goes no further.
 */
export function checkHook(check: (request: FastifyRequest) => void) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    try {
      check(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  };
}
