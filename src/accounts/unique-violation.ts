/**
 * Whether a write failed on a unique constraint, on either account backend (SQLite:
 * `SQLITE_CONSTRAINT_UNIQUE`; PostgreSQL: SQLSTATE 23505). A check before an insert cannot see a
 * row a concurrent writer adds in between; the constraint does, and this tells its refusal from
 * a real failure.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const { code } = error;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
