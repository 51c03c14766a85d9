import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';

export type Row = Record<string, DuckDBValue>;
export type Params = Record<string, DuckDBValue> | DuckDBValue[];

/** Runs a parameterized query and returns plain row objects (values are bound, never spliced). */
export async function queryRows(
  connection: DuckDBConnection,
  sql: string,
  params?: Params,
): Promise<Row[]> {
  const reader = await connection.runAndReadAll(sql, params);
  return reader.getRowObjectsJS() as Row[];
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
  options: { readOnly?: boolean; threads?: number } = {},
): Promise<DuckDBInstance> {
  const settings: Record<string, string> = {
    // Extensions download at run time, which this service must never do.
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  };
  if (options.readOnly) settings.access_mode = 'READ_ONLY';
  if (options.threads) settings.threads = String(options.threads);
  return DuckDBInstance.create(path, settings);
}
