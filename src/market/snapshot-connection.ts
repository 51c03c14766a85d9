import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { queryPrepared } from './duck.js';

/**
 * Offer columns added after snapshots were first written, with their SQL type. A snapshot never
 * changes, so one written before a column existed is read through a view that adds the column,
 * empty: the queries of today's code then run on it unchanged (the next import writes the column).
 */
export const ADDED_OFFER_COLUMNS: Readonly<Record<string, string>> = { land_area: 'DOUBLE' };

/** The tables that carry the offers' columns. */
const OFFER_TABLES = ['offers', 'offers_by_place'];

/**
 * Makes `db`, a connection to a snapshot, read an older snapshot's offer tables with today's
 * columns: a temporary view per table that lacks one (a view lives with its connection).
 */
export async function readAsCurrent(db: DuckDBConnection): Promise<void> {
  const rows = await queryPrepared(
    db,
    `select table_name, column_name, database_name from duckdb_columns()
     where database_name = current_database() and schema_name = 'main'
       and table_name in (${OFFER_TABLES.map((t) => `'${t}'`).join(', ')})`,
    {},
  );
  for (const table of OFFER_TABLES) {
    const own = rows.filter((r) => r.table_name === table);
    const database = own[0]?.database_name;
    if (typeof database !== 'string') continue;
    const present = new Set(own.map((r) => String(r.column_name)));
    const missing = Object.entries(ADDED_OFFER_COLUMNS).filter(([c]) => !present.has(c));
    if (missing.length === 0) continue;
    // Qualified by the snapshot's name: the view's own name would otherwise refer to itself. The
    // row id is passed on: radius searches order offers at the same distance by it.
    const source = `"${database.replaceAll('"', '""')}".main.${table}`;
    await db.run(
      `create or replace temp view ${table} as
       select rowid as rowid, *, ${missing.map(([c, type]) => `null::${type} as ${c}`).join(', ')} from ${source}`,
    );
  }
}

/** A new connection to a snapshot's instance, reading it with today's columns. */
export async function connectSnapshot(instance: DuckDBInstance): Promise<DuckDBConnection> {
  const db = await instance.connect();
  try {
    await readAsCurrent(db);
    return db;
  } catch (error) {
    db.closeSync();
    throw error;
  }
}
