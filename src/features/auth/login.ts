import type { Static } from 'typebox';
import type { AccountDb } from '../../accounts/database.js';
import { burnPasswordCheck, verifyPassword } from '../../accounts/passwords.js';
import { issueToken } from '../../accounts/tokens.js';
import {
  findUserByUsername,
  findUserProfile,
  normalizeUsername,
  type UserProfile,
} from '../../accounts/users.js';
import type { Caller } from '../../http/caller.js';
import { AppError, notFound } from '../../http/problem.js';
import type { LoginThrottle } from './login-throttle.js';
import type { LoginBody, LoginResponse } from './schemas.js';

/** The credentials of the body, and the client address (failures are counted per address). */
export type LoginInput = Static<typeof LoginBody> & { address: string };
export type LoginResult = Static<typeof LoginResponse>;

function throttled(seconds: number): AppError {
  return new AppError('rate_limited', 'Too many failed logins; try again later', {
    headers: { 'retry-after': String(seconds) },
  });
}

/** What logging in needs: the accounts, the failure counters and the token lifetime. */
export interface LoginDeps {
  db: AccountDb;
  throttle: LoginThrottle;
  ttlSeconds: number;
}

/**
 * Checks credentials and issues a short-lived login token. Unknown user and wrong password give
 * the same answer in the same time, so the endpoint does not reveal which usernames exist.
 */
export async function login(
  { db, throttle, ttlSeconds }: LoginDeps,
  input: LoginInput,
): Promise<LoginResult> {
  const username = normalizeUsername(input.username);
  const wait = Math.max(
    throttle.retryAfterSeconds('username', username),
    throttle.retryAfterSeconds('address', input.address),
  );
  if (wait > 0) throw throttled(wait);

  const user = await findUserByUsername(db, username);
  const ok = user
    ? await verifyPassword(input.password, user.password_hash)
    : (await burnPasswordCheck(input.password), false);
  if (!user || !ok) {
    throttle.recordFailure('username', username);
    throttle.recordFailure('address', input.address);
    throw new AppError('unauthenticated', 'Wrong username or password');
  }
  throttle.reset('username', username);
  const token = await issueToken(db, { userId: user.id, kind: 'login', ttlSeconds });
  return { access_token: token.secret, expires_in: ttlSeconds };
}

/** The caller's own profile. */
export async function profileOf(db: AccountDb, caller: Caller): Promise<UserProfile> {
  const profile = await findUserProfile(db, caller.userId);
  if (!profile) throw notFound('User');
  return profile;
}
