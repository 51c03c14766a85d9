import { createHash, randomBytes } from 'node:crypto';

/** Recognisable prefix, so secret scanners and people can tell a propdata token at a glance. */
const TOKEN_PREFIX = 'pd_';
const TOKEN_BYTES = 32; // 256 bits

export function newTokenSecret(): string {
  return TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
}

/** What `randomBytes(bytes).toString('base64url')` gives: ⌈4 × bytes / 3⌉ characters, no padding. */
export function base64urlOf(bytes: number): string {
  return `[A-Za-z0-9_-]{${String(Math.ceil((4 * bytes) / 3))}}`;
}

const TOKEN_PATTERN = new RegExp(`^${TOKEN_PREFIX}${base64urlOf(TOKEN_BYTES)}$`);

export function looksLikeToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

/** Tokens carry 256 random bits, so a fast hash is enough: there is nothing to brute-force. */
export function hashToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
