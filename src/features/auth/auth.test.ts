import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueToken, revokeTokens } from '../../accounts/tokens.js';
import { describeBackends } from '../../../test/helpers/backends.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { call, createWorld, PASSWORD, type World } from '../../../test/helpers/world.js';
import { limits } from '../../limits.js';
import { createLoginThrottle } from './login-throttle.js';

describeBackends('login and bearer auth', (backend) => {
  let world: World;
  // The app's own throttle, with the limits of src/limits.ts. Tests fill it up to one failure
  // below a limit directly: each failed login over HTTP costs a full scrypt check by design, and
  // fifty of them take minutes on a loaded machine. The last failure goes through the endpoint.
  const throttle = createLoginThrottle();
  beforeAll(async () => {
    world = await createWorld(backend, { app: { loginThrottle: throttle } });
  });
  afterAll(() => world.close());

  const login = (username: string, password: string, ip = '10.0.0.1') =>
    call(world.app, {
      method: 'POST',
      url: '/auth/login/credentials',
      payload: { username, password },
      remoteAddress: ip,
    });
  const me = (token: string) => call(world.app, { method: 'GET', url: '/api/v1/me', token });

  it('logs in and the token opens the API as that user', async () => {
    const res = await login('Member-A', PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ access_token: string; expires_in: number }>();
    expect(body.expires_in).toBe(7200);
    expect(body.access_token).toMatch(/^pd_[A-Za-z0-9_-]{43}$/);
    const profile = await me(body.access_token);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toEqual({
      userId: world.memberA.userId,
      username: 'member-a',
      isAdmin: false,
      organizationId: world.memberA.organizationId,
      organizationName: 'Org A',
    });
  });

  it('answers a wrong password and an unknown user identically', async () => {
    const wrong = await login('member-a', 'not the password', '10.0.0.2');
    const unknown = await login('nobody-here', 'not the password', '10.0.0.2');
    const a = expectProblem(wrong, 401, 'unauthenticated');
    const b = expectProblem(unknown, 401, 'unauthenticated');
    expect({ ...a, requestId: '' }).toEqual({ ...b, requestId: '' });
  });

  it('refuses missing, malformed, unknown, expired and revoked tokens with WWW-Authenticate', async () => {
    const db = world.stores.accounts.db;
    const expired = await issueToken(db, {
      userId: world.memberA.userId,
      kind: 'login',
      ttlSeconds: 60,
      now: new Date(Date.now() - 120_000),
    });
    const revoked = await issueToken(db, {
      userId: world.memberA.userId,
      kind: 'api',
      ttlSeconds: 3600,
    });
    expect(await revokeTokens(db, { id: revoked.id })).toBe(1);

    const cases: [string, Record<string, string>, RegExp][] = [
      ['missing', {}, /required/],
      ['not bearer', { authorization: 'Basic Zm9vOmJhcg==' }, /Bearer/],
      ['malformed', { authorization: 'Bearer abc' }, /malformed/],
      ['unknown', { authorization: `Bearer pd_${'A'.repeat(43)}` }, /not valid/],
      ['expired', { authorization: `Bearer ${expired.secret}` }, /expired/],
      ['revoked', { authorization: `Bearer ${revoked.secret}` }, /revoked/],
    ];
    for (const [name, headers, detail] of cases) {
      const res = await call(world.app, { method: 'GET', url: '/api/v1/me', headers });
      const body = expectProblem(res, 401, 'unauthenticated');
      expect(body.detail, name).toMatch(detail);
      expect(res.headers['www-authenticate'], name).toMatch(
        /^Bearer realm="api", error="invalid_token"/,
      );
    }
  });

  it('refuses the access_token query parameter on routes that do not opt in', async () => {
    const res = await call(world.app, {
      method: 'GET',
      url: `/api/v1/me?access_token=${world.memberA.token}`,
    });
    expect(expectProblem(res, 401, 'unauthenticated').detail).toMatch(
      /query parameter is not accepted/,
    );
  });

  it('throttles failed logins per username with 429 and Retry-After, leaving others alone', async () => {
    const victim = 'admin-b';
    for (let i = 1; i < limits.login.maxFailuresPerUsername; i++) {
      throttle.recordFailure('username', victim);
    }
    expect((await login(victim, 'wrong', '10.1.0.1')).statusCode).toBe(401); // the last one
    const blocked = await login(victim, PASSWORD, '10.2.0.1');
    expectProblem(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login('member-b', PASSWORD, '10.2.0.1')).statusCode).toBe(200);
  });

  it('throttles failed logins per client address, whatever the usernames', async () => {
    const ip = '10.9.9.9';
    for (let i = 1; i < limits.login.maxFailuresPerAddress; i++) {
      throttle.recordFailure('address', ip);
    }
    // One failure below the limit, a correct login still passes (and does not clear the count).
    expect((await login('member-a', PASSWORD, ip)).statusCode).toBe(200);
    expect((await login('ghost', 'wrong', ip)).statusCode).toBe(401); // the last one
    expectProblem(await login('member-a', PASSWORD, ip), 429, 'rate_limited');
    expect((await login('member-a', PASSWORD, '10.9.9.10')).statusCode).toBe(200);
  });
});
