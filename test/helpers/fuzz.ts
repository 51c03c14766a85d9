import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { AccountDb } from '../../src/accounts/database.js';
import { ERROR_STATUS, type ErrorCode } from '../../src/http/problem.js';

/** fast-check's seed for the fuzz suites: fixed, so that CI runs are repeatable; `FC_SEED` varies it. */
export const FUZZ_SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20261121;

const ACCOUNT_TABLES = [
  'organizations',
  'users',
  'tokens',
  'templates',
  'covers',
  'cover_chunks',
  'dossiers',
  'attachments',
  'attachment_files',
  'attachment_chunks',
];

/** A hash of every row of every account table: equal hashes, unchanged store. */
export async function accountState(db: AccountDb): Promise<string> {
  const hash = createHash('sha256');
  for (const table of ACCOUNT_TABLES) {
    const rows = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table)} order by 1, 2`.execute(db);
    hash.update(table);
    hash.update(
      JSON.stringify(rows.rows, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v)),
    );
  }
  return hash.digest('hex');
}

/** The answer to a malformed request: a 4xx problem+json with one of the service's codes. */
export function expectRefusal(res: LightMyRequestResponse, where: string): void {
  const answer = `${where} → ${String(res.statusCode)} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, answer).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, answer).toBeLessThan(500);
  expect(res.headers['content-type'], answer).toMatch(/^application\/problem\+json/);
  const { code, status } = res.json<{ code: ErrorCode; status: number }>();
  expect(ERROR_STATUS[code], answer).toBe(res.statusCode);
  expect(status, answer).toBe(res.statusCode);
}

/**
 * The public HTML page of a sharing link answers anything that is not an open link's secret
 * with its plain 404 page (a person reads it, not a client), or, past the views one address may
 * make, its plain 429 page with `Retry-After`; other refusals (a path parameter over its length)
 * are problem+json as everywhere.
 */
export function expectPageRefusal(res: LightMyRequestResponse, where: string): void {
  if (String(res.headers['content-type']).startsWith('text/html')) {
    const answer = `${where} → ${String(res.statusCode)}`;
    if (res.statusCode === 429) {
      expect(Number(res.headers['retry-after']), answer).toBeGreaterThan(0);
      return;
    }
    expect(res.statusCode, answer).toBe(404);
    return;
  }
  expectRefusal(res, where);
}
