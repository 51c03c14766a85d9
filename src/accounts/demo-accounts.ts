import { randomBytes } from 'node:crypto';
import type { AccountDb } from './database.js';
import { countOrganizations, createOrganization } from './organizations.js';
import { issueToken } from './tokens.js';
import { createUser } from './users.js';

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
 * credentials are printed exactly once.
 */
export async function seedDemoAccounts(db: AccountDb): Promise<DemoAccount[] | null> {
  if ((await countOrganizations(db)) > 0) return null;
  const org = await createOrganization(db, DEMO_ORGANIZATION);
  const accounts: DemoAccount[] = [];
  for (const [username, isAdmin] of [
    ['demo-admin', true],
    ['demo-user', false],
  ] as const) {
    const password = randomBytes(12).toString('base64url');
    const user = await createUser(db, { organizationId: org.id, username, password, isAdmin });
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
