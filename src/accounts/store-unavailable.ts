/**
 * PostgreSQL conditions (SQLSTATE) of a server that will not take the work now but may soon:
 * too many connections (for the server, a role or a database), starting up or shutting down,
 * the connection lost, a lock another holds for longer than a statement may wait.
 */
const POSTGRES_UNAVAILABLE = new Set([
  '53300', // too_many_connections
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '55P03', // lock_not_available: a lock held beyond `lock_timeout` (limits.accountStore.lockWaitMs)
  '53100', // disk_full: nothing was written; the operator must make room
]);

/**
 * The database host not answering a new connection. Only a failed connect counts: the same
 * codes on other sockets (a client that aborts its request body: ECONNRESET) are not the
 * database's.
 */
const CONNECT_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH']);

function field(error: unknown, name: 'code' | 'syscall'): string | undefined {
  if (typeof error !== 'object' || error === null || !(name in error)) return undefined;
  const value: unknown = (error as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Whether `error` says the account database cannot serve now (refusing connections, unreachable,
 * locked) rather than that a request or the code is wrong: such a request is answered `503`
 * with `Retry-After`, as any other overload, not `500`. node-postgres reports a connection the
 * server closed under it without a code, by this message.
 */
export function accountStoreUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const code = field(e, 'code');
    if (code !== undefined) {
      if (POSTGRES_UNAVAILABLE.has(code)) return true;
      if (CONNECT_UNAVAILABLE.has(code) && field(e, 'syscall') === 'connect') return true;
      // SQLite's file held by another writer beyond the wait (`sqlite-lock-wait.ts`), in any of
      // its extended forms (SQLITE_BUSY_SNAPSHOT, …). SQLITE_LOCKED is a conflict within one
      // connection: a fault, not a busy database.
      if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
      // The disk (or the file's page limit) is full: the transaction was rolled back, nothing
      // was written, and the request may succeed once the operator has made room.
      if (code === 'SQLITE_FULL') return true;
    }
    if (e.message === 'Connection terminated unexpectedly') return true;
  }
  return false;
}
