import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { keepingStatements } from './sqlite-statements.js';

interface Tables {
  t: { id: number; name: string };
}

let database: SQLite.Database;
let db: Kysely<Tables>;
let prepared: string[] = [];

function open(): void {
  database = new SQLite(':memory:');
  // Counts what reaches better-sqlite3's prepare.
  const prepare = database.prepare.bind(database);
  database.prepare = (text: string) => {
    prepared.push(text);
    return prepare(text);
  };
  db = new Kysely<Tables>({
    dialect: new SqliteDialect({ database: keepingStatements(database) }),
  });
}

afterEach(async () => {
  await db.destroy();
  prepared = [];
});

it('prepares a query text once and binds new values on each run', async () => {
  open();
  await sql`create table t (id integer primary key, name text)`.execute(db);
  await db.insertInto('t').values({ id: 1, name: 'one' }).execute();
  await db.insertInto('t').values({ id: 2, name: 'two' }).execute();
  prepared = [];
  const byId = (id: number) =>
    db.selectFrom('t').select('name').where('id', '=', id).executeTakeFirst();
  expect(await byId(1)).toEqual({ name: 'one' });
  expect(await byId(2)).toEqual({ name: 'two' });
  expect(await byId(3)).toBeUndefined();
  expect(prepared).toHaveLength(1);
});

it('answers with the new schema after a change', async () => {
  open();
  await sql`create table t (id integer primary key, name text)`.execute(db);
  await db.insertInto('t').values({ id: 1, name: 'one' }).execute();
  const all = () => sql<Record<string, unknown>>`select * from t`.execute(db);
  expect((await all()).rows).toEqual([{ id: 1, name: 'one' }]);
  await sql`alter table t add column extra text default 'x'`.execute(db);
  expect((await all()).rows).toEqual([{ id: 1, name: 'one', extra: 'x' }]);
});
