import type { Static } from 'typebox';
import type { AccountDb } from '../../accounts/database.js';
import { burnPasswordCheck, verifyPassword } from '../../accounts/passwords.js';
import {
  findUserByUsername,
  findUserProfile,
  issueLoginToken,
  normalizeUsername,
  type UserProfile,
} from '../../accounts/users.js';
import type { UserRow } from '../../accounts/tables.js';
import { unauthenticated, type Caller } from '../../http/caller.js';
import { AppError, notFound } from '../../http/problem.js';
import { limits } from '../../limits.js';
import type { LoginThrottle } from './login-throttle.js';
import type { PasswordCheckSlots } from './password-check-slots.js';
import type { LoginBody, LoginResponse } from './schemas.js';

/** The credentials of the body, and the client address (failures are counted per address). */
export type LoginInput = Static<typeof LoginBody> & { address: string };
export type LoginResult = Static<typeof LoginResponse>;

function busy(refused: 'address' | 'total'): AppError {
  const headers = { 'retry-after': String(limits.login.busyRetryAfterSeconds) };
  return refused === 'address'
    ? new AppError('rate_limited', 'Too many logins under way from this address; retry shortly', {
        headers,
      })
    : new AppError('overloaded', 'Too many logins under way; retry shortly', { headers });
}

function throttled(seconds: number): AppError {
  return new AppError('rate_limited', 'Too many failed logins; try again later', {
    headers: { 'retry-after': String(seconds) },
  });
}

/**
 * The user whose password this is, or undefined; as slow for an unknown user as for a known one.
 * A disabled user is refused as a wrong password is, after the same check.
 */
async function checkCredentials(
  db: AccountDb,
  username: string,
  password: string,
): Promise<UserRow | undefined> {
  const user = await findUserByUsername(db, username);
  if (!user) {
    await burnPasswordCheck(password);
    return undefined;
  }
  const valid = await verifyPassword(password, user.password_hash);
  return valid && user.disabled_at === null ? user : undefined;
}

/**
 * What logging in needs: the accounts, the failure counters, the bound on password checks under
 * way and the token lifetime.
 */
export interface LoginDeps {
  db: AccountDb;
  throttle: LoginThrottle;
  slots: PasswordCheckSlots;
  ttlSeconds: number;
  now: () => Date;
}

/**
 * Checks credentials and issues a short-lived login token. Unknown user and wrong password give
 * the same answer in the same time, so the endpoint does not reveal which usernames exist.
 */
export async function login(
  { db, throttle, slots, ttlSeconds, now }: LoginDeps,
  input: LoginInput,
): Promise<LoginResult> {
  const username = normalizeUsername(input.username);
  // Reserved before the password is checked, so concurrent guesses are counted as they start.
  const attempt = throttle.reserve({ username, address: input.address });
  if ('retryAfterSeconds' in attempt) throw throttled(attempt.retryAfterSeconds);
  const slot = slots.acquire(input.address);
  if ('refused' in slot) {
    attempt.cancel();
    throw busy(slot.refused);
  }

  let user: UserRow | undefined;
  try {
    user = await checkCredentials(db, username, input.password);
  } catch (error) {
    attempt.cancel();
    throw error;
  } finally {
    slot.release();
  }
  // A password changed or a user disabled while the password was checked refuses the login as
  // a wrong password does: the password checked is no longer the user's.
  const token = user ? await issueLoginToken(db, user, ttlSeconds, now()) : undefined;
  if (!token) {
    attempt.fail();
    throw unauthenticated('Wrong username or password', false);
  }
  attempt.succeed();
  return { access_token: token.secret, expires_in: ttlSeconds };
}

/** The caller's own profile. */
export async function profileOf(db: AccountDb, caller: Caller): Promise<UserProfile> {
  const profile = await findUserProfile(db, caller.userId);
  if (!profile) throw notFound('User');
  return profile;
}
