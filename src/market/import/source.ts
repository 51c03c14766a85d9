import fs from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, sqlString } from '../duck.js';
import type { FieldSpec } from './fields.js';

export type FileFormat = 'csv' | 'ndjson' | 'parquet';

export class ImportFileError extends Error {}

/** The format is chosen by extension, with an optional `.gz` after it. */
export function formatOf(file: string): FileFormat {
  const name = file.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return 'ndjson';
  if (name.endsWith('.parquet')) return 'parquet';
  throw new ImportFileError(
    `cannot tell the format of ${file}: use .csv, .ndjson (or .jsonl) or .parquet, optionally with .gz`,
  );
}

function reader(file: string, format: FileFormat): string {
  const path = sqlString(file);
  switch (format) {
    case 'csv':
      // No row skipping: the sniffer must not silently drop lines it finds odd.
      return `read_csv(${path}, header = true, skip = 0, all_varchar = true, strict_mode = true)`;
    case 'ndjson':
      return `read_json(${path}, format = 'newline_delimited', records = true, sample_size = -1)`;
    case 'parquet':
      return `read_parquet(${path})`;
  }
}

/**
 * Loads a file into the temp table `incoming`: one text column per field of the format (null
 * where the file lacks it), plus `line`, the row's line (CSV counts its header line; NDJSON and
 * Parquet count rows from 1). A column the format does not know is an error: a misspelt header
 * must not silently drop a field. Answers the fields the file has a column for.
 */
export async function loadIncoming(
  db: DuckDBConnection,
  file: string,
  fields: readonly FieldSpec[],
): Promise<ReadonlySet<string>> {
  if (!fs.existsSync(file)) throw new ImportFileError(`${file} does not exist`);
  const format = formatOf(file);
  const source = reader(file, format);
  let columns: string[];
  try {
    columns = (await queryRows(db, `describe select * from ${source}`)).map((r) =>
      String(r.column_name),
    );
  } catch (error) {
    throw new ImportFileError(`cannot read ${file} as ${format}: ${(error as Error).message}`);
  }
  const known = new Set(fields.map((f) => f.name));
  const unknown = columns.filter((c) => !known.has(c));
  if (unknown.length > 0) {
    throw new ImportFileError(
      `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; expected some of ${fields.map((f) => f.name).join(', ')}`,
    );
  }
  const present = new Set(columns);
  const missing = fields.filter((f) => f.required && !present.has(f.name)).map((f) => f.name);
  if (missing.length > 0)
    throw new ImportFileError(`missing required column ${missing.join(', ')}`);
  const projection = fields
    .map((f) =>
      present.has(f.name)
        ? `nullif(trim(cast("${f.name}" as varchar)), '') as "${f.name}"`
        : `null::varchar as "${f.name}"`,
    )
    .join(', ');
  const firstLine = format === 'csv' ? 2 : 1;
  try {
    await db.run(
      `create temp table incoming as
       select (row_number() over () + ${firstLine - 1})::integer as line, ${projection} from ${source}`,
    );
  } catch (error) {
    throw new ImportFileError(`cannot read ${file}: ${(error as Error).message}`);
  }
  return present;
}
