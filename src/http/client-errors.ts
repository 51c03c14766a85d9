import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { limits } from '../limits.js';
import { AppError, PROBLEM_MEDIA_TYPE, problemBody } from './problem.js';
import type { ClientTimeouts } from './timeouts.js';

type Deadlines = Pick<ClientTimeouts, 'headersMs' | 'requestMs'>;

/** What Node's HTTP server reports about a client it gives up on: a parse error or a deadline. */
interface ClientError extends Error {
  code?: string;
  /** The parser's own words for a parse error, e.g. `Invalid header token`. */
  reason?: unknown;
}

const seconds = (ms: number) => `${String(ms / 1000)} s`;

/** The refusal, in the service's codes, of a request the HTTP server could not take. */
export function clientErrorProblem(error: ClientError, deadlines: Deadlines): AppError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError(
        'request_timeout',
        `The request did not arrive in time: headers are due within ${seconds(deadlines.headersMs)}, ` +
          `the whole request within ${seconds(deadlines.requestMs)}`,
      );
    case 'HPE_HEADER_OVERFLOW':
      return new AppError(
        'headers_too_large',
        `The request line and headers exceed the limit of ${String(limits.requestHeaderBytes)} ` +
          `bytes (${String(limits.requestHeaderBytes / 1024)} KiB)`,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      // Node's own limit, 16 KiB of extensions per body, which it answers with 413 too.
      return new AppError('payload_too_large', 'The chunk extensions of the body exceed 16 KiB');
    default:
      return new AppError(
        'bad_request',
        typeof error.reason === 'string' && error.reason !== ''
          ? `The request is not valid HTTP/1.1: ${error.reason}`
          : 'The request is not valid HTTP/1.1',
      );
  }
}

/** A whole HTTP/1.1 response carrying `error` as problem details; the connection ends after it. */
export function rawProblemResponse(error: AppError, requestId: string): string {
  const body = JSON.stringify(problemBody(error, requestId));
  const headers: Record<string, string> = {
    ...error.headers,
    'content-type': `${PROBLEM_MEDIA_TYPE}; charset=utf-8`,
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    'x-content-type-options': 'nosniff',
    date: new Date().toUTCString(),
    connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${String(error.status)} ${STATUS_CODES[error.status] ?? ''}\r\n${head.join('')}\r\n${body}`;
}

/** Whether the response to the connection's current request has begun (Node's own check). */
function answerUnderWay(socket: Socket): boolean {
  const response = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  return response?.headersSent === true;
}

/**
 * Answers a client the HTTP server gives up on before (or while) reading its request: a deadline
 * passed (408), headers over the limit (431), bytes that are not HTTP (400). Like every other
 * refusal this is problem details, logged under its request id; then the connection is closed,
 * as Node does, since what follows on it cannot be trusted to be a request.
 */
export function answerClientError(
  error: ClientError,
  socket: Socket,
  log: Pick<FastifyBaseLogger, 'info'>,
  deadlines: Deadlines,
): void {
  // A reset connection, or one already gone: there is no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const problem = clientErrorProblem(error, deadlines);
  const requestId = randomUUID();
  // Not the error itself: a parse error carries the bytes received, tokens included.
  log.info(
    { reqId: requestId, code: problem.code, detail: problem.detail, cause: error.code },
    'request refused',
  );
  // An answer already begun on this connection must not get another in its middle.
  if (socket.writable && !answerUnderWay(socket)) {
    socket.write(rawProblemResponse(problem, requestId));
  }
  socket.destroy();
}

/** Fastify's `clientErrorHandler` option: `answerClientError` with the app's log. */
export function clientErrorHandler(
  deadlines: Deadlines,
): NonNullable<FastifyServerOptions['clientErrorHandler']> {
  return function (this: { log: FastifyBaseLogger }, error, socket) {
    answerClientError(error, socket, this.log, deadlines);
  };
}
