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

export function unauthenticated(detail: string): AppError {
  return new AppError('unauthenticated', detail, {
    headers: {
      'www-authenticate': `Bearer realm="api", error="invalid_token", error_description="${detail}"`,
    },
  });
}

export async function resolveCaller(
  db: AccountDb,
  secret: string,
  now: Date = new Date(),
): Promise<Caller> {
  // Malformed tokens are refused without a database round trip.
  if (!looksLikeToken(secret)) throw unauthenticated('The access token is malformed');
  const owner = await findTokenOwner(db, secret);
  if (!owner) throw unauthenticated('The access token is not valid');
  if (owner.revokedAt !== null) throw unauthenticated('The access token has been revoked');
  if (owner.expiresAt !== null && owner.expiresAt <= now.toISOString()) {
    throw unauthenticated('The access token has expired');
  }
  return {
    userId: owner.userId,
    organizationId: owner.organizationId,
    isAdmin: owner.isAdmin,
    tokenId: owner.tokenId,
  };
}

export function requireAdmin(caller: Caller, what: string): void {
  if (!caller.isAdmin) throw new AppError('forbidden', `Only organization admins may ${what}`);
}
