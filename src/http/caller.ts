import type { AccountDb } from '../accounts/database.js';
import { looksLikeToken } from '../accounts/secrets.js';
import { findTokenOwner } from '../accounts/tokens.js';
import { AppError } from './problem.js';

/** Who is calling: taken from the token and nothing else (never from a request body). */
export interface Caller {
  userId: string;
  organizationId: string;
  isAdmin: boolean;
  tokenId: string;
}

/** Whose data a query may see: a caller's user and organization (stores scope every query by it). */
export type Viewer = Pick<Caller, 'userId' | 'organizationId'>;

/** A quoted-string of RFC 9110: backslashes and quotes escaped, control characters dropped. */
function quoted(text: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${text.replace(/[\u0000-\u001f\u007f]/g, '').replace(/["\\]/g, '\\$&')}"`;
}

/**
 * A 401. `error="invalid_token"` only when a token was sent (RFC 6750 §3.1: a request without
 * credentials gets the challenge alone).
 */
export function unauthenticated(detail: string, tokenSent = true): AppError {
  const challenge = tokenSent
    ? `Bearer realm="api", error="invalid_token", error_description=${quoted(detail)}`
    : 'Bearer realm="api"';
  return new AppError('unauthenticated', detail, { headers: { 'www-authenticate': challenge } });
}

/** Why a well-formed token was refused: logged, never told, so answers say nothing of its state. */
export type TokenRefusal = 'unknown' | 'revoked' | 'expired';

/** The one answer to an unknown, revoked or expired token. */
export const TOKEN_NOT_VALID = 'The access token is not valid (unknown, expired or revoked)';

/** The caller a token stands for, or why it does not stand for one. */
export async function findCaller(
  db: AccountDb,
  secret: string,
  now: Date,
): Promise<Caller | { refused: TokenRefusal }> {
  const owner = await findTokenOwner(db, secret);
  if (!owner) return { refused: 'unknown' };
  if (owner.revokedAt !== null) return { refused: 'revoked' };
  if (owner.expiresAt !== null && owner.expiresAt <= now.toISOString()) {
    return { refused: 'expired' };
  }
  return {
    userId: owner.userId,
    organizationId: owner.organizationId,
    isAdmin: owner.isAdmin,
    tokenId: owner.tokenId,
  };
}

/** `findCaller`, refusing with one 401 whatever the reason; `onRefusal` hears the reason. */
export async function resolveCaller(
  db: AccountDb,
  secret: string,
  onRefusal: (reason: TokenRefusal | 'malformed') => void,
  now: Date,
): Promise<Caller> {
  // Malformed tokens are refused without a database round trip.
  if (!looksLikeToken(secret)) {
    onRefusal('malformed');
    throw unauthenticated('The access token is malformed');
  }
  const found = await findCaller(db, secret, now);
  if ('refused' in found) {
    onRefusal(found.refused);
    throw unauthenticated(TOKEN_NOT_VALID);
  }
  return found;
}

export function requireAdmin(caller: Caller, what: string): void {
  if (!caller.isAdmin) throw new AppError('forbidden', `Only organization admins may ${what}`);
}
