import { createHash, randomBytes } from 'node:crypto';

/** Recognisable prefix, so secret scanners and people can tell a propdata token at a glance. */
const TOKEN_PREFIX = 'pd_';
const TOKEN_BYTES = 32; // 256 bits

export function newTokenSecret(): string {
  return TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
}

export function looksLikeToken(value: string): boolean {
  return /^pd_[A-Za-z0-9_-]{43}$/.test(value);
}

/** Tokens carry 256 random bits, so a fast hash is enough: there is nothing to brute-force. */
export function hashToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
