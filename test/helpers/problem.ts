import { STATUS_CODES } from 'node:http';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { ErrorCode, Problem } from '../../src/http/problem.js';

/** The RFC 9457 shape of the contract, whatever sent it; returns the parsed body. */
function expectProblemBody(
  body: string,
  headers: Record<string, string | string[] | number | undefined>,
  status: number,
  code: ErrorCode,
): Problem {
  expect(headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(body) as Problem;
  expect(problem).toMatchObject({ type: 'about:blank', status, code });
  expect(typeof problem.title).toBe('string');
  expect(problem.detail.length).toBeGreaterThan(0);
  expect(problem.message).toBe(problem.detail);
  expect(problem.requestId).toBe(headers['x-request-id']);
  return problem;
}

/** Asserts the RFC 9457 shape of the contract and returns the parsed body. */
export function expectProblem(
  res: LightMyRequestResponse,
  status: number,
  code: ErrorCode,
): Problem {
  expect(res.statusCode, res.body).toBe(status);
  return expectProblemBody(res.body, res.headers, status, code);
}

/** A response as read off a socket: its head (status line and header lines) and body. */
export interface RawResponse {
  head: string;
  body: string;
}

/** The header lines of a raw response, by lower-case name. */
export function rawHeaders(response: RawResponse): Record<string, string> {
  const lines = response.head.split('\r\n').slice(1);
  return Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
}

/**
 * `expectProblem` for a response read off a socket (`RawConnection.response()`): the same body,
 * and a complete HTTP/1.1 head.
 */
export function expectRawProblem(response: RawResponse, status: number, code: ErrorCode): Problem {
  const statusLine = response.head.split('\r\n', 1)[0];
  expect(statusLine, response.head).toBe(
    `HTTP/1.1 ${String(status)} ${STATUS_CODES[status] ?? ''}`,
  );
  const headers = rawHeaders(response);
  expect(Number(headers['content-length'])).toBe(Buffer.byteLength(response.body, 'latin1'));
  const problem = expectProblemBody(response.body, headers, status, code);
  expect(problem.title).toBe(STATUS_CODES[status]);
  return problem;
}
