/**
 * PostgreSQL conditions (SQLSTATE) of a server that will not take the work now but may soon:
 * too many connections (for the server, a role or a database), starting up or shutting down,
 * the connection lost.
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
]);

/** The database host not answering, or the connection dropped on the way. */
const NETWORK_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH']);

/** SQLite's file held by another writer beyond the busy wait (`busy_timeout`). */
const SQLITE_UNAVAILABLE = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Whether `error` says the account database cannot serve now (refusing connections, unreachable,
 * locked) rather than that a request or the code is wrong: such a request is answered `503`
 * with `Retry-After`, as any other overload, not `500`. node-postgres reports a connection the
 * server closed under it without a code, by this message.
 */
export function accountStoreUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const code = codeOf(e);
    if (code !== undefined) {
      if (POSTGRES_UNAVAILABLE.has(code) || NETWORK_UNAVAILABLE.has(code)) return true;
      if (SQLITE_UNAVAILABLE.has(code)) return true;
    }
    if (e.message === 'Connection terminated unexpectedly') return true;
  }
  return false;
}
