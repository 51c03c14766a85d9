import { randomBytes } from 'node:crypto';
import type { AccountDb } from './database.js';
import {
  countOrganizations,
  createOrganization,
  findOrganizationByName,
  OrganizationNameTaken,
} from './organizations.js';
import type { OrganizationRow } from './tables.js';
import { issueToken } from './tokens.js';
import { createUser, UsernameTaken } from './users.js';

export const DEMO_ORGANIZATION = 'Demo Realty';
/** Demo tokens outlive a login token so the printed curl example keeps working for a while. */
const DEMO_TOKEN_TTL_SECONDS = 30 * 86_400;

export interface DemoAccount {
  username: string;
  password: string;
  isAdmin: boolean;
  token: string;
}

/**
 * On a brand-new account store (no organization at all), creates a demo organization with an
 * admin and a regular user. Returns them once; on any later start it returns null, so
 * credentials are printed exactly once. A first start stopped between the organization and its
 * users left the demo organization alone and empty: the next start gives it its users.
 */
export async function seedDemoAccounts(db: AccountDb): Promise<DemoAccount[] | null> {
  const org = await demoOrganizationToSeed(db);
  if (!org) return null;
  const accounts: DemoAccount[] = [];
  for (const [username, isAdmin] of [
    ['demo-admin', true],
    ['demo-user', false],
  ] as const) {
    const password = randomBytes(12).toString('base64url');
    const user = await createUser(db, {
      organizationId: org.id,
      username,
      password,
      isAdmin,
    }).catch((error: unknown) => {
      // Another process starting at the same moment seeds them.
      if (error instanceof UsernameTaken) return undefined;
      throw error;
    });
    if (!user) return null;
    const token = await issueToken(db, {
      userId: user.id,
      kind: 'api',
      ttlSeconds: DEMO_TOKEN_TTL_SECONDS,
      label: 'demo',
    });
    accounts.push({ username, password, isAdmin, token: token.secret });
  }
  return accounts;
}

/** The demo organization to give its users: a new one on a brand-new store, or the one an
 * interrupted first start left as the store's only organization, without users. */
async function demoOrganizationToSeed(db: AccountDb): Promise<OrganizationRow | undefined> {
  const organizations = await countOrganizations(db);
  if (organizations === 0) {
    return createOrganization(db, DEMO_ORGANIZATION).catch((error: unknown) => {
      if (error instanceof OrganizationNameTaken) return undefined;
      throw error;
    });
  }
  if (organizations > 1) return undefined;
  const org = await findOrganizationByName(db, DEMO_ORGANIZATION);
  if (!org) return undefined;
  const users = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('organization_id', '=', org.id)
    .executeTakeFirst();
  return Number(users?.n ?? 0) === 0 ? org : undefined;
}
