import { randomUUID } from 'node:crypto';
import type { AccountDb } from './database.js';
import { lockOwnerRow } from './owner-lock.js';
import { hashPassword } from './passwords.js';
import {
  forgetTokenOwners,
  issueToken,
  purgeExpiredLoginTokens,
  revokeTokens,
  type IssuedToken,
} from './tokens.js';
import type { UserRow } from './tables.js';
import { isUniqueViolation } from './unique-violation.js';

export interface NewUser {
  organizationId: string;
  username: string;
  password: string;
  isAdmin: boolean;
}

/** Usernames are compared case-insensitively: `Anna` and `anna` are one account. */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._@-]{2,63}$/;

/** The username belongs to another user already (also when both were created at once). */
export class UsernameTaken extends Error {
  constructor(readonly username: string) {
    super(`username "${username}" is taken`);
    this.name = 'UsernameTaken';
  }
}

export async function createUser(db: AccountDb, user: NewUser): Promise<UserRow> {
  const row: UserRow = {
    id: randomUUID(),
    organization_id: user.organizationId,
    username: normalizeUsername(user.username),
    password_hash: await hashPassword(user.password),
    is_admin: user.isAdmin ? 1 : 0,
    created_at: new Date().toISOString(),
    disabled_at: null,
  };
  try {
    await db.insertInto('users').values(row).execute();
  } catch (error) {
    throw isUniqueViolation(error) ? new UsernameTaken(row.username) : error;
  }
  return row;
}

/** What an operator may change of a user; what is left out stays. */
export interface UserChange {
  isAdmin?: boolean;
  password?: string;
  disabled?: boolean;
}

/**
 * Changes a user and withdraws what the change takes away, in one transaction: disabling revokes
 * all the user's tokens (a token issued meanwhile is refused for the disabled user, see
 * findTokenOwner, and revoked when the user is enabled again); a new password revokes the login
 * tokens made with the old one (API tokens are credentials of their own). A user disabled again
 * keeps the first time. The changes reach this process's cached token owners at once, other
 * processes' within their cache's lifetime, as a revocation does.
 */
export async function updateUser(
  db: AccountDb,
  userId: string,
  change: UserChange,
  now: Date = new Date(),
): Promise<{ revokedTokens: number }> {
  const set: Partial<UserRow> = {};
  if (change.isAdmin !== undefined) set.is_admin = change.isAdmin ? 1 : 0;
  if (change.password !== undefined) set.password_hash = await hashPassword(change.password);
  const revokedTokens = await db.transaction().execute(async (trx) => {
    // The user's row first: the lock it takes orders this change with any other of the user.
    await lockOwnerRow(trx, { table: 'users', id: userId });
    if (Object.keys(set).length > 0) {
      await trx.updateTable('users').set(set).where('id', '=', userId).execute();
    }
    if (change.disabled === true) {
      await trx
        .updateTable('users')
        .set({ disabled_at: now.toISOString() })
        .where('id', '=', userId)
        .where('disabled_at', 'is', null)
        .execute();
      return revokeTokens(trx, { userId }, now);
    }
    if (change.disabled === false) {
      const user = await trx
        .selectFrom('users')
        .select('disabled_at')
        .where('id', '=', userId)
        .executeTakeFirst();
      // Tokens issued while the user was disabled (a race with the disabling) stay dead.
      if (user?.disabled_at) {
        await trx
          .updateTable('tokens')
          .set({ revoked_at: user.disabled_at })
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .where('created_at', '>=', user.disabled_at)
          .execute();
      }
      await trx.updateTable('users').set({ disabled_at: null }).where('id', '=', userId).execute();
    }
    return change.password === undefined ? 0 : revokeTokens(trx, { userId, kind: 'login' }, now);
  });
  forgetTokenOwners(db);
  return { revokedTokens };
}

/**
 * Issues a login token to a user whose password was checked against `checked`, the row as read
 * before the (slow) check, if the user still has that password and is not disabled. Checked under
 * the user's row lock, which updateUser takes too: a new password or a disabling that commits
 * while the password is being checked either refuses this login (undefined) or, coming after it,
 * revokes its token — a token made with the old password never outlives the change. Also clears
 * the user's expired login tokens.
 */
export async function issueLoginToken(
  db: AccountDb,
  checked: UserRow,
  ttlSeconds: number,
  now: Date,
): Promise<IssuedToken | undefined> {
  return db.transaction().execute(async (trx) => {
    await lockOwnerRow(trx, { table: 'users', id: checked.id });
    const current = await trx
      .selectFrom('users')
      .select(['password_hash', 'disabled_at'])
      .where('id', '=', checked.id)
      .executeTakeFirst();
    if (current?.password_hash !== checked.password_hash || current.disabled_at !== null) {
      return undefined;
    }
    await purgeExpiredLoginTokens(trx, checked.id, now);
    return issueToken(trx, { userId: checked.id, kind: 'login', ttlSeconds, now });
  });
}

export function findUserByUsername(db: AccountDb, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', normalizeUsername(username))
    .executeTakeFirst();
}

export function listUsers(db: AccountDb): Promise<(UserRow & { organization_name: string })[]> {
  return db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .selectAll('users')
    .select('organizations.name as organization_name')
    .orderBy('organizations.name')
    .orderBy('users.username')
    .execute();
}

export interface UserProfile {
  userId: string;
  username: string;
  isAdmin: boolean;
  organizationId: string;
  organizationName: string;
}

export async function findUserProfile(
  db: AccountDb,
  userId: string,
): Promise<UserProfile | undefined> {
  const row = await db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .select([
      'users.id as userId',
      'users.username',
      'users.is_admin',
      'organizations.id as organizationId',
      'organizations.name as organizationName',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { is_admin, ...rest } = row;
  return { ...rest, isAdmin: is_admin === 1 };
}
