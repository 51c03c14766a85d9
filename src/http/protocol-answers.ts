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

/**
 * A body whose coding the server would not undo: Node's parser removes `chunked` only, and
 * Fastify reads a body as it arrives, so a gzipped body (or one only declared gzipped) would be
 * parsed as if it were plain. Refused before routing (RFC 9110 §8.4 and §15.5.16, RFC 9112
 * §6.1): an unknown content coding `415`, an unknown transfer coding `501`.
 */
function unsupportedCoding(request: IncomingMessage): AppError | undefined {
  const codings = (header: string | undefined) =>
    (header ?? '')
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter((c) => c !== '' && c !== 'identity');
  // Only a body can be coded: a header on a request without one (some clients send it on
  // every GET) says nothing.
  const length = request.headers['content-length'];
  const hasBody =
    request.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length.trim() !== '0');
  const content = codings(request.headers['content-encoding']);
  if (hasBody && content.length > 0) {
    return new AppError(
      'unsupported_media_type',
      `The body's Content-Encoding ${content.join(', ')} is not supported: send it uncompressed`,
      { headers: { connection: 'close' } },
    );
  }
  const transfer = codings(request.headers['transfer-encoding']).filter((c) => c !== 'chunked');
  if (transfer.length > 0) {
    return new AppError(
      'not_implemented',
      `The Transfer-Encoding ${transfer.join(', ')} is not supported; only chunked is`,
      { headers: { connection: 'close' } },
    );
  }
  return undefined;
}

function connectRefused(): AppError {
  return new AppError('not_implemented', 'CONNECT is not supported: this server is not a proxy');
}

/**
 * Problem details for what Node's HTTP server would otherwise answer itself, with an empty body
 * or none: an HTTP/1.1 request without `Host` (400), an `Expect` other than `100-continue`
 * (417) and `CONNECT` (501; Node would drop the connection); and a body coding the server does
 * not undo (415, 501), which it would otherwise read as plain. Each is logged under its request
 * id, and the connection is closed after it, since what follows cannot be trusted.
 */
export function registerProtocolAnswers(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const hostless = request.raw.httpVersion === '1.1' && request.headers.host === undefined;
    done(hostless ? missingHost() : unsupportedCoding(request.raw));
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
