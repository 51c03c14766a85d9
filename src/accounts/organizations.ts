import { randomUUID } from 'node:crypto';
import { organizationNameKey } from './organization-name.js';
import { isUniqueViolation } from './unique-violation.js';
import type { AccountDb } from './database.js';
import type { OrganizationRow } from './tables.js';

/** The organization name is in use already, in any case or Unicode composition (also when both
 * were created at once). */
export class OrganizationNameTaken extends Error {
  constructor(readonly organizationName: string) {
    super(`organization "${organizationName}" already exists`);
    this.name = 'OrganizationNameTaken';
  }
}

export async function createOrganization(db: AccountDb, name: string): Promise<OrganizationRow> {
  const row: OrganizationRow = {
    id: randomUUID(),
    name,
    name_key: organizationNameKey(name),
    created_at: new Date().toISOString(),
  };
  try {
    await db.insertInto('organizations').values(row).execute();
  } catch (error) {
    throw isUniqueViolation(error) ? new OrganizationNameTaken(name) : error;
  }
  return row;
}

export function findOrganizationByName(
  db: AccountDb,
  name: string,
): Promise<OrganizationRow | undefined> {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where('name_key', '=', organizationNameKey(name))
    .executeTakeFirst();
}

/** The name of the caller's own organization. */
export async function callerOrganizationName(
  db: AccountDb,
  caller: { organizationId: string },
): Promise<string> {
  const row = await db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', caller.organizationId)
    .executeTakeFirstOrThrow();
  return row.name;
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
