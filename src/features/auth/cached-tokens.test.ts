import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { hashToken, newTokenSecret } from '../../accounts/secrets.js';
import { issueToken, revokeTokens } from '../../accounts/tokens.js';
import { describeBackends } from '../../../test/helpers/backends.js';
import { call, createWorld, type World } from '../../../test/helpers/world.js';

// The token owner cache as the API uses it, on a clock the test moves: what it may hide (a
// revocation by another process, for its lifetime) and what it never hides (a revocation in this
// process, expiry).
describeBackends('access tokens kept in memory', (backend) => {
  let world: World;
  let clock = Date.parse('2026-03-01T12:00:00Z');
  beforeAll(async () => {
    world = await createWorld(backend, {
      env: { PROPDATA_TOKEN_CACHE_MS: '5000' },
      app: { now: () => new Date(clock) },
    });
  });
  afterAll(() => world.close());

  const me = async (token: string) =>
    (await call(world.app, { method: 'GET', url: '/api/v1/me', token })).statusCode;
  const issue = async (ttlSeconds = 3600) =>
    (
      await issueToken(world.stores.accounts.db, {
        userId: world.memberA.userId,
        kind: 'api',
        ttlSeconds,
        now: new Date(clock),
      })
    ).secret;
  /** A revocation written by another process: the row changes, this process is not told. */
  const revokeElsewhere = (secret: string) =>
    world.stores.accounts.db
      .updateTable('tokens')
      .set({ revoked_at: new Date(clock).toISOString() })
      .where('token_hash', '=', hashToken(secret))
      .execute();

  it('a token revoked by another process works until the cache lifetime ends, not after', async () => {
    const token = await issue();
    expect(await me(token)).toBe(200);
    await revokeElsewhere(token);
    // The answer comes from memory: the database already says "revoked".
    clock += 4_999;
    expect(await me(token)).toBe(200);
    clock += 1;
    expect(await me(token)).toBe(401);
  });

  it('a revocation in this process takes effect at once', async () => {
    const token = await issue();
    expect(await me(token)).toBe(200);
    expect(await revokeTokens(world.stores.accounts.db, { secret: token })).toBe(1);
    expect(await me(token)).toBe(401);
  });

  it('a cached token still expires on time', async () => {
    const token = await issue(60);
    expect(await me(token)).toBe(200);
    clock += 59_000;
    expect(await me(token)).toBe(200);
    // Kept in memory a second ago, expired now.
    clock += 1_000;
    expect(await me(token)).toBe(401);
  });

  it('a refusal is not kept: a token created by another process works at once', async () => {
    const secret = newTokenSecret();
    expect(await me(secret)).toBe(401);
    await world.stores.accounts.db
      .insertInto('tokens')
      .values({
        id: randomUUID(),
        user_id: world.memberA.userId,
        token_hash: hashToken(secret),
        kind: 'api',
        label: null,
        created_at: new Date(clock).toISOString(),
        expires_at: null,
        revoked_at: null,
      })
      .execute();
    expect(await me(secret)).toBe(200);
  });
});
