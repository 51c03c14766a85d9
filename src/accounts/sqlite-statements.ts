import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept per database; more distinct query texts than this drop the oldest. */
const KEPT_STATEMENTS = 256;

/**
 * The database as Kysely's SQLite driver sees it, with its prepared statements kept by query
 * text: the driver prepares every query anew, and preparing costs more than running the small
 * queries of a request (the token lookup of every authenticated request: 0.2–0.4 ms → one bind).
 * A statement is reused only after its previous run returned (better-sqlite3 runs synchronously;
 * the driver streams nothing), and SQLite re-prepares it itself after a schema change.
 */
export function keepingStatements(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const known = statements.get(sql);
      if (known) {
        statements.delete(sql);
        statements.set(sql, known);
        return known;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > KEPT_STATEMENTS)
        statements.delete(statements.keys().next().value as string);
      return statement;
    },
  };
}
