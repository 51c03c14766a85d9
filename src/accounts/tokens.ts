import { randomUUID } from 'node:crypto';
import type { AccountDb } from './database.js';
import { hashToken, newTokenSecret } from './secrets.js';
import type { TokenKind, TokenRow } from './tables.js';
import type { TokenCache } from './token-cache.js';

export interface IssuedToken {
  id: string;
  secret: string;
  expiresAt: string | null;
}

export interface IssueTokenOptions {
  userId: string;
  kind: TokenKind;
  /** null: never expires (API tokens only, on explicit request). */
  ttlSeconds: number | null;
  label?: string;
  now?: Date;
}

/** Creates a token; its secret is returned once and only its hash is stored. */
export async function issueToken(db: AccountDb, options: IssueTokenOptions): Promise<IssuedToken> {
  const now = options.now ?? new Date();
  const secret = newTokenSecret();
  const expiresAt =
    options.ttlSeconds === null
      ? null
      : new Date(now.getTime() + options.ttlSeconds * 1000).toISOString();
  const id = randomUUID();
  await db
    .insertInto('tokens')
    .values({
      id,
      user_id: options.userId,
      token_hash: hashToken(secret),
      kind: options.kind,
      label: options.label ?? null,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      revoked_at: null,
    })
    .execute();
  return { id, secret, expiresAt };
}

/**
 * Deletes the user's login tokens that have expired. Each login mints one; without this they
 * would pile up for as long as the user logs in. Run at each login, so a user's expired login
 * tokens are gone by their next one (API tokens are kept: their owner lists and revokes them).
 */
export async function purgeExpiredLoginTokens(
  db: AccountDb,
  userId: string,
  now: Date,
): Promise<number> {
  const result = await db
    .deleteFrom('tokens')
    .where('user_id', '=', userId)
    .where('kind', '=', 'login')
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface TokenOwner {
  tokenId: string;
  userId: string;
  organizationId: string;
  isAdmin: boolean;
  expiresAt: string | null;
  revokedAt: string | null;
}

/**
 * The owner caches of account databases: kept with the database object rather than passed
 * along, so that every revocation through that database clears its cache — none can forget to.
 */
const ownerCaches = new WeakMap<AccountDb, TokenCache<TokenOwner>>();

/** From now on, `findTokenOwner` on `db` answers from `cache` what it found within its lifetime. */
export function cacheTokenOwners(db: AccountDb, cache: TokenCache<TokenOwner>): void {
  ownerCaches.set(db, cache);
}

/** The token and its user, whatever the token's state; the caller decides what counts as valid. */
export async function findTokenOwner(
  db: AccountDb,
  secret: string,
): Promise<TokenOwner | undefined> {
  // Keyed by the secret itself: a hit then costs no hash (the request holds the secret anyway).
  const cache = ownerCaches.get(db);
  const cached = cache?.get(secret);
  if (cached) return cached;
  const owner = await lookUpTokenOwner(db, hashToken(secret));
  if (owner) cache?.set(secret, owner);
  return owner;
}

async function lookUpTokenOwner(db: AccountDb, tokenHash: string): Promise<TokenOwner | undefined> {
  const row = await db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .select([
      'tokens.id as tokenId',
      'tokens.expires_at as expiresAt',
      'tokens.revoked_at as revokedAt',
      'users.id as userId',
      'users.organization_id as organizationId',
      'users.is_admin as isAdmin',
      'users.disabled_at as disabledAt',
    ])
    .where('tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { disabledAt, ...owner } = row;
  // A disabled user's tokens were revoked when the user was; one issued since counts as revoked.
  return { ...owner, isAdmin: owner.isAdmin === 1, revokedAt: owner.revokedAt ?? disabledAt };
}

export function listTokens(db: AccountDb, userId: string): Promise<TokenRow[]> {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/** One token (by its secret or id), or a user's tokens (of one kind, or all). */
export type RevokeTarget =
  { secret: string } | { id: string } | { userId: string; kind?: TokenKind };

/** Revokes the matching live tokens and returns how many there were. */
export async function revokeTokens(
  db: AccountDb,
  target: RevokeTarget,
  now: Date = new Date(),
): Promise<number> {
  let query = db
    .updateTable('tokens')
    .set({ revoked_at: now.toISOString() })
    .where('revoked_at', 'is', null);
  if ('secret' in target) query = query.where('token_hash', '=', hashToken(target.secret));
  else if ('id' in target) query = query.where('id', '=', target.id);
  else {
    query = query.where('user_id', '=', target.userId);
    if (target.kind) query = query.where('kind', '=', target.kind);
  }
  const result = await query.executeTakeFirst();
  // Cached owners say "not revoked": in this process a revocation takes effect at once.
  forgetTokenOwners(db);
  return Number(result.numUpdatedRows);
}

/** Forgets the token owners cached for `db` (after a change to what they say). */
export function forgetTokenOwners(db: AccountDb): void {
  ownerCaches.get(db)?.clear();
}
