import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { describe, inject } from 'vitest';
import type { AccountBackend } from '../../src/accounts/database.js';
import { tempDir } from './temp-dirs.js';

export { tempDir };

const postgresUrl = (): string => inject('postgresUrl');

/** A new, empty account database on `backend`: an SQLite file, or a database in the cluster. */
export async function freshDatabaseUrl(backend: AccountBackend): Promise<string> {
  if (backend === 'sqlite') return `sqlite:${path.join(tempDir(), 'accounts.sqlite')}`;
  const admin = new URL(postgresUrl());
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  admin.pathname = `/${name}`;
  return admin.toString();
}

/**
 * Runs the same suite on SQLite and on PostgreSQL. The PostgreSQL run is skipped (and says so)
 * only when the cluster could not be started outside CI.
 */
export function describeBackends(name: string, suite: (backend: AccountBackend) => void): void {
  describe.each(['sqlite', 'postgres'] as const)(`${name} [%s]`, (backend) => {
    if (backend === 'postgres' && postgresUrl() === '') {
      describe.skip('PostgreSQL unavailable', () => {
        suite(backend);
      });
      return;
    }
    suite(backend);
  });
}
