import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { limits } from '../limits.js';
import { migrationProvider } from './migrations.js';
import { LockWaitingSqliteDialect } from './sqlite-lock-wait.js';
import { keepingStatements } from './sqlite-statements.js';
import type { AccountTables } from './tables.js';

export type AccountDb = Kysely<AccountTables>;
export type AccountBackend = 'sqlite' | 'postgres';

export interface AccountDatabase {
  readonly db: AccountDb;
  readonly backend: AccountBackend;
  /** Throws unless the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function backendOf(url: string): AccountBackend {
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  if (url.startsWith('sqlite:')) return 'sqlite';
  throw new Error(
    `DATABASE_URL must start with postgres://, postgresql:// or sqlite: (got "${url.split(':')[0] ?? ''}:…")`,
  );
}

function openSqlite(file: string): Kysely<AccountTables> {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  // WAL lets readers proceed during a write; NORMAL sync is durable against process crashes
  // (a power cut may lose the last commits, never consistency); foreign keys are off by default.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // The wait for another process's lock is asynchronous (`LockWaitingSqliteDialect`), not
  // SQLite's own, which holds the thread.
  database.pragma('busy_timeout = 0');
  return new Kysely<AccountTables>({
    dialect: new LockWaitingSqliteDialect(
      { database: keepingStatements(database) },
      limits.accountStore.lockWaitMs,
      () => database.inTransaction,
    ),
  });
}

/**
 * A connection PostgreSQL ends (a restart, a failover, `pg_terminate_backend`, an idle timeout)
 * is reported as an `error` event on the pool (idle) or on its client (between queries), which
 * would end the process if nothing listened. The pool drops such a client; a query on it fails
 * and is answered `503` (`accountStoreUnavailable`); the next takes a new connection.
 */
const connectionEnded = (): void => undefined;

function openPostgres(
  url: string,
  poolSize: number,
  lockTimeoutMs?: number,
): Kysely<AccountTables> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', connectionEnded);
  pool.on('connect', (client) => {
    client.on('error', connectionEnded);
    // Set on the session, before any query of the pool's (a client runs its queries in order),
    // rather than as a startup parameter, which a connection pooler in front (PgBouncer)
    // refuses; a failure shows in the queries after it.
    if (lockTimeoutMs !== undefined) {
      client.query(`SET lock_timeout = ${String(lockTimeoutMs)}`).catch(() => undefined);
    }
  });
  return new Kysely<AccountTables>({ dialect: new PostgresDialect({ pool }) });
}

const sqliteMigrations = new Map<string, Promise<void>>();

/**
 * Kysely's migration lock is a no-op on SQLite, so processes starting at once on a new file
 * would race to create the same tables. Migrations of one file therefore run one at a time:
 * across processes under an exclusive lock on a sidecar SQLite file (the OS drops it if the
 * holder dies), within this process through a promise chain (the lock wait is synchronous and
 * would otherwise block the holder's own progress).
 */
async function withSqliteMigrationLock(file: string, migrate: () => Promise<void>): Promise<void> {
  if (file === ':memory:') return migrate();
  const key = path.resolve(file);
  const previous = sqliteMigrations.get(key) ?? Promise.resolve();
  const run = previous
    .catch(() => undefined)
    .then(async () => {
      const lock = new SQLite(`${key}.migration-lock`);
      try {
        lock.pragma('busy_timeout = 60000');
        lock.exec('BEGIN EXCLUSIVE');
        await migrate();
      } finally {
        if (lock.inTransaction) lock.exec('COMMIT');
        lock.close();
      }
    });
  sqliteMigrations.set(key, run);
  return run;
}

async function migrate(db: Kysely<AccountTables>): Promise<void> {
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('account migration failed');
}

/**
 * Opens the account database named by `url` and brings its schema up to date; on PostgreSQL
 * with a pool of at most `poolSize` connections (`limits.accountStore`).
 */
export async function openAccountDatabase(
  url: string,
  poolSize: number = limits.accountStore.defaultPostgresPoolSize,
): Promise<AccountDatabase> {
  const backend = backendOf(url);
  const file = url.slice('sqlite:'.length);
  if (backend === 'postgres') {
    // Migrated through a connection of its own that waits for another process's migration as
    // long as it takes; the pool's statements wait for a lock `lockWaitMs` at the most.
    const migrator = openPostgres(url, 1);
    try {
      await migrate(migrator);
    } finally {
      await migrator.destroy();
    }
  }
  const db =
    backend === 'sqlite'
      ? openSqlite(file)
      : openPostgres(url, poolSize, limits.accountStore.lockWaitMs);
  if (backend === 'sqlite') {
    try {
      await withSqliteMigrationLock(file, () => migrate(db));
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
  return {
    db,
    backend,
    async ping() {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/**
 * Connections PostgreSQL lets this service's role open (`max_connections` less those reserved,
 * or the role's own limit if lower; a superuser may use them all, whatever its limit);
 * `undefined` on SQLite. Read once at a start, to say when the processes' pools together would not fit.
 */
export async function postgresConnectionRoom(
  accounts: AccountDatabase,
): Promise<number | undefined> {
  if (accounts.backend !== 'postgres') return undefined;
  // PostgreSQL 16 also keeps `reserved_connections` for roles granted them; absent before.
  const { rows } = await sql<{ room: number }>`
    select case when r.rolsuper then current_setting('max_connections')::int
      else least(
        current_setting('max_connections')::int
          - current_setting('superuser_reserved_connections')::int
          - coalesce(nullif(current_setting('reserved_connections', true), '')::int, 0),
        case when r.rolconnlimit >= 0 then r.rolconnlimit else 2147483647 end
      ) end as room
    from pg_roles r where r.rolname = current_user`.execute(accounts.db);
  return rows[0]?.room;
}
