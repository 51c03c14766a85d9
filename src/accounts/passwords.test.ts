import { describe, expect, it } from 'vitest';
import { DUMMY_HASH, hashPassword, verifyPassword } from './passwords.js';

describe('the hash unknown usernames are checked against', () => {
  it('exists from the start, with the parameters of real hashes, and matches no password', async () => {
    const params = (stored: string) => stored.split('$').slice(0, 4);
    expect(params(DUMMY_HASH)).toEqual(params(await hashPassword('a real password')));
    expect(await verifyPassword('not-a-real-password', DUMMY_HASH)).toBe(false);
    expect(await verifyPassword('', DUMMY_HASH)).toBe(false);
  });
});
