import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { rawProblemResponse } from './client-errors.js';
import { AppError, PROBLEM_MEDIA_TYPE, problemBody } from './problem.js';

/** Node's own `requireHostHeader` answers an empty 400; this check answers problem details. */
export const NODE_HTTP_OPTIONS = { requireHostHeader: false } as const;

function missingHost(): AppError {
  return new AppError('bad_request', 'An HTTP/1.1 request must have a Host header', {
    headers: { connection: 'close' },
  });
}

function unmetExpectation(expect: string | undefined): AppError {
  return new AppError(
    'expectation_failed',
    `The expectation ${JSON.stringify(expect ?? '')} is not supported; only 100-continue is`,
  );
}

function connectRefused(): AppError {
  return new AppError('not_implemented', 'CONNECT is not supported: this server is not a proxy');
}

/**
 * Problem details for what Node's HTTP server would otherwise answer itself, with an empty body
 * or none: an HTTP/1.1 request without `Host` (400), an `Expect` other than `100-continue`
 * (417) and `CONNECT` (501; Node would drop the connection). Each is logged under its request
 * id, and the connection is closed after it, since what follows cannot be trusted.
 */
export function registerProtocolAnswers(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const hostless = request.raw.httpVersion === '1.1' && request.headers.host === undefined;
    done(hostless ? missingHost() : undefined);
  });

  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const problem = unmetExpectation(request.headers.expect);
    const requestId = randomUUID();
    app.log.info(
      { reqId: requestId, code: problem.code, detail: problem.detail },
      'request refused',
    );
    const body = JSON.stringify(problemBody(problem, requestId));
    response.writeHead(problem.status, {
      'content-type': `${PROBLEM_MEDIA_TYPE}; charset=utf-8`,
      'content-length': String(Buffer.byteLength(body)),
      'x-request-id': requestId,
      'x-content-type-options': 'nosniff',
      connection: 'close',
    });
    response.end(body);
  });

  app.server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    const problem = connectRefused();
    const requestId = randomUUID();
    app.log.info(
      { reqId: requestId, code: problem.code, detail: problem.detail },
      'request refused',
    );
    socket.on('error', () => undefined);
    socket.end(rawProblemResponse(problem, requestId));
  });
}
