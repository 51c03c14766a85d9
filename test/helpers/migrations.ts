import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from '../../src/accounts/migrations.js';

/**
 * An account database at `url` (sqlite: or postgres://) migrated up to migration `name` only, as
 * an older release left it: for tests of the migrations after it. Destroy it before opening the
 * database with `openAccountDatabase`, which migrates it to the latest.
 */
export async function migratedTo(url: string, name: string): Promise<Kysely<unknown>> {
  const db = url.startsWith('sqlite:')
    ? new Kysely<unknown>({
        dialect: new SqliteDialect({ database: new SQLite(url.slice('sqlite:'.length)) }),
      })
    : new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
      });
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(name);
  if (error) {
    await db.destroy();
    throw error instanceof Error ? error : new Error('migration failed');
  }
  return db;
}
