import {
  DuckDBInstance,
  type DuckDBDataChunk,
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';

export type Row = Record<string, DuckDBValue>;
export type Params = Record<string, DuckDBValue> | DuckDBValue[];

/** Runs a parameterized query and returns plain row objects (values are bound, never spliced). */
export function queryRows(
  connection: DuckDBConnection,
  sql: string,
  params?: Params,
): Promise<Row[]> {
  return inTurn(connection, async () => {
    const reader = await connection.runAndReadAll(sql, params);
    return reader.getRowObjectsJS() as Row[];
  });
}

/**
 * Runs a query and returns its result's chunks, for readers that copy columns into typed arrays
 * (converting a large result to JavaScript rows first costs ten times more). In turn with the
 * connection's other queries, like `queryRows`.
 */
export function queryChunks(
  connection: DuckDBConnection,
  sql: string,
  params?: Params,
): Promise<DuckDBDataChunk[]> {
  return inTurn(connection, async () => (await connection.run(sql, params)).fetchAllChunks());
}

/** The last query started on each connection (settled either way). */
const lastQuery = new WeakMap<DuckDBConnection, Promise<unknown>>();

/**
 * Runs `query` on the connection after the queries asked for before it. DuckDB runs one query
 * per connection at a time: a second one started while the first is still pending breaks the
 * first, and a prepared statement's bound values are shared by its callers.
 */
function inTurn<T>(connection: DuckDBConnection, query: () => Promise<T>): Promise<T> {
  const turn = (lastQuery.get(connection) ?? Promise.resolve()).then(query);
  lastQuery.set(
    connection,
    turn.catch(() => undefined),
  );
  return turn;
}

/** Prepared statements kept per connection, least recently used dropped first. */
const PREPARED_PER_CONNECTION = 128;
const preparedByConnection = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

async function preparedStatement(
  connection: DuckDBConnection,
  sql: string,
): Promise<DuckDBPreparedStatement> {
  let cache = preparedByConnection.get(connection);
  if (!cache) {
    cache = new Map();
    preparedByConnection.set(connection, cache);
  }
  const known = cache.get(sql);
  if (known) {
    cache.delete(sql);
    cache.set(sql, known);
    return known;
  }
  const statement = await connection.prepare(sql);
  cache.set(sql, statement);
  if (cache.size > PREPARED_PER_CONNECTION) {
    const [oldestSql, oldest] = cache.entries().next().value as [string, DuckDBPreparedStatement];
    cache.delete(oldestSql);
    oldest.destroySync();
  }
  return statement;
}

/**
 * `queryRows` for the read path of a read-only snapshot: a query text seen before on this
 * connection skips parsing and planning (most of the cost of a small query), only the values
 * are bound anew. Like `queryRows`, in turn with the connection's other queries.
 */
export function queryPrepared(
  connection: DuckDBConnection,
  sql: string,
  params: Record<string, DuckDBValue>,
  /** Types of values DuckDB cannot infer from the value alone (lists). */
  types?: Record<string, DuckDBType>,
): Promise<Row[]> {
  return inTurn(connection, async () => {
    const statement = await preparedStatement(connection, sql);
    statement.clearBindings();
    statement.bind(params, types);
    return (await statement.runAndReadAll()).getRowObjectsJS() as Row[];
  });
}

export async function queryOne(
  connection: DuckDBConnection,
  sql: string,
  params?: Params,
): Promise<Row | undefined> {
  return (await queryRows(connection, sql, params))[0];
}

/** SQL string literal for identifiers and paths we control; never for request values. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

export async function openDuck(
  path: string,
  options: { readOnly?: boolean; threads?: number; memoryLimit?: string } = {},
): Promise<DuckDBInstance> {
  const settings: Record<string, string> = {
    // Extensions download at run time, which this service must never do.
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  };
  if (options.readOnly) settings.access_mode = 'READ_ONLY';
  if (options.threads) settings.threads = String(options.threads);
  if (options.memoryLimit) settings.memory_limit = options.memoryLimit;
  return DuckDBInstance.create(path, settings);
}

/** What a connection reads: a market snapshot's file is read-only and never changes. */
export interface DatabaseIdentity {
  /** The database's name (a snapshot's is its file's, unique per snapshot). */
  name: string;
  /** The file of a read-only database, null otherwise (in memory, or open for writing). */
  readOnlyFile: string | null;
}

const identityOfConnection = new WeakMap<DuckDBConnection, DatabaseIdentity>();

/** The identity of the database a connection reads, asked once per connection. */
export async function databaseIdentity(connection: DuckDBConnection): Promise<DatabaseIdentity> {
  let identity = identityOfConnection.get(connection);
  if (identity === undefined) {
    const [row] = await queryPrepared(
      connection,
      `select database_name as name, path, readonly from duckdb_databases()
        where database_name = current_database()`,
      {},
    );
    identity = {
      name: String(row?.name ?? ''),
      readOnlyFile: row?.readonly === true && typeof row.path === 'string' ? row.path : null,
    };
    identityOfConnection.set(connection, identity);
  }
  return identity;
}

/** Whether the open database (not an attached one) has a table of that name. */
export async function hasTable(db: DuckDBConnection, table: string): Promise<boolean> {
  const rows = await queryPrepared(
    db,
    `select count(*)::integer as n from duckdb_tables()
      where database_name = current_database() and table_name = $t`,
    { t: table },
  );
  return rows[0]?.n === 1;
}
