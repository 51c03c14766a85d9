import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { ErrorCode, Problem } from '../../src/http/problem.js';

/** Asserts the RFC 9457 shape of the contract and returns the parsed body. */
export function expectProblem(
  res: LightMyRequestResponse,
  status: number,
  code: ErrorCode,
): Problem {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json<Problem>();
  expect(body).toMatchObject({ type: 'about:blank', status, code });
  expect(typeof body.title).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  expect(body.message).toBe(body.detail);
  expect(body.requestId).toBe(res.headers['x-request-id']);
  return body;
}
