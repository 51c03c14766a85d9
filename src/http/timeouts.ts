import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';

/** How long a client may take over its request, and how long an idle connection is kept. */
export interface ClientTimeouts {
  /** The request line and headers must arrive within this (slow-loris protection). */
  headersMs: number;
  /** The whole request, headers and body, must arrive within this. */
  requestMs: number;
  /** Idle keep-alive connections are closed after this. */
  keepAliveMs: number;
  /** How often Node checks the header and request deadlines. */
  checkIntervalMs: number;
  /** A response must have been handed to the network within this of its start. */
  sendMs: number;
  /** A request must be answered within this of its arrival (`answer-deadline.ts`). */
  answerMs: number;
}

/**
 * Fastify's and Node's server options for `timeouts`. Fastify sets the request and keep-alive
 * timeouts on the server it creates; the header deadline and the interval at which Node checks
 * both deadlines can only be given to `http.createServer`, which also refuses a header deadline
 * beyond the request deadline, so a wrong pair stops the start.
 */
export function timeoutOptions(
  timeouts: ClientTimeouts,
): Pick<FastifyHttpOptions<Server>, 'requestTimeout' | 'keepAliveTimeout' | 'http'> {
  return {
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
  };
}
