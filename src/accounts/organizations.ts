import { randomUUID } from 'node:crypto';
import type { AccountDb } from './database.js';
import type { OrganizationRow } from './tables.js';

export async function createOrganization(db: AccountDb, name: string): Promise<OrganizationRow> {
  const row: OrganizationRow = { id: randomUUID(), name, created_at: new Date().toISOString() };
  await db.insertInto('organizations').values(row).execute();
  return row;
}

export function findOrganizationByName(
  db: AccountDb,
  name: string,
): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('name', '=', name).executeTakeFirst();
}

export function listOrganizations(db: AccountDb): Promise<OrganizationRow[]> {
  return db.selectFrom('organizations').selectAll().orderBy('created_at').orderBy('name').execute();
}

export async function countOrganizations(db: AccountDb): Promise<number> {
  const row = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
