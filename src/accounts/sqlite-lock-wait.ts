import { setTimeout as sleep } from 'node:timers/promises';
import { CompiledQuery, SqliteDialect } from 'kysely';
import type {
  DatabaseConnection,
  Driver,
  QueryCompiler,
  QueryResult,
  SqliteDialectConfig,
} from 'kysely';

/** The first pause after a refused lock; each next one doubles, up to `LONGEST_PAUSE_MS`. */
const FIRST_PAUSE_MS = 1;
const LONGEST_PAUSE_MS = 32;

/**
 * SQLite's busy wait (`busy_timeout`) sleeps in the calling thread: a process waiting for
 * another process's write lock answered nothing else meanwhile, up to the whole wait. Here the
 * database is opened without one (`busy_timeout = 0`), and a statement the lock refuses
 * (`SQLITE_BUSY`) is tried again after a pause that lets the process go on with other work,
 * for `waitMs` at the most; then the refusal stands (a `503`, `accountStoreUnavailable`).
 *
 * Only statements that changed nothing are tried again, as SQLite's documentation allows: one
 * outside a transaction, a transaction's start and its commit. Transactions start with `BEGIN IMMEDIATE`,
 * taking the write lock at once, so no statement inside one is refused later (where a retry
 * would not be safe) and no transaction that read first finds at its first write that another
 * process wrote meanwhile (`SQLITE_BUSY_SNAPSHOT`, which no wait mends).
 */
export class LockWaitingSqliteDialect extends SqliteDialect {
  readonly #waitMs: number;
  readonly #inTransaction: () => boolean;

  constructor(config: SqliteDialectConfig, waitMs: number, inTransaction: () => boolean) {
    super(config);
    this.#waitMs = waitMs;
    this.#inTransaction = inTransaction;
  }

  override createDriver(): Driver {
    // SQLite's driver has every method, savepoints included.
    const driver = super.createDriver() as Required<Driver>;
    return new LockWaitingDriver(driver, this.#waitMs, this.#inTransaction);
  }
}

/** `SQLITE_BUSY` and `SQLITE_BUSY_RECOVERY` pass; `SQLITE_BUSY_SNAPSHOT` never would. */
function lockRefused(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY';
}

async function waitingForLock<T>(waitMs: number, run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await run();
    } catch (error) {
      if (!lockRefused(error) || Date.now() + pause > deadline) throw error;
      await sleep(pause);
    }
  }
}

class LockWaitingConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly waitMs: number,
    private readonly inTransaction: () => boolean,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction()) return this.inner.executeQuery<R>(query);
    return waitingForLock(this.waitMs, () => this.inner.executeQuery<R>(query));
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class LockWaitingDriver implements Driver {
  constructor(
    private readonly inner: Required<Driver>,
    private readonly waitMs: number,
    private readonly inTransaction: () => boolean,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new LockWaitingConnection(
      await this.inner.acquireConnection(),
      this.waitMs,
      this.inTransaction,
    );
  }

  /** SQLite has one isolation (serializable) and no read-only transactions: settings do not apply. */
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /** A refused commit may be tried again (SQLite's documentation): it changed nothing yet. */
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return waitingForLock(this.waitMs, () => this.inner.commitTransaction(unwrap(connection)));
  }

  /**
   * Where SQLite has already rolled the transaction back itself (a full disk, an I/O error),
   * a second rollback would fail ("no transaction is active") and hide the error that ended it.
   */
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.inTransaction()) await this.inner.rollbackTransaction(unwrap(connection));
  }

  savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.inner.savepoint(unwrap(connection), name, compile);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.inner.rollbackToSavepoint(unwrap(connection), name, compile);
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.inner.releaseSavepoint(unwrap(connection), name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof LockWaitingConnection ? connection.inner : connection;
}
