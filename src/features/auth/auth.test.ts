import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueToken, listTokens, revokeTokens } from '../../accounts/tokens.js';
import { describeBackends } from '../../../test/helpers/backends.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { call, createWorld, PASSWORD, type World } from '../../../test/helpers/world.js';
import { limits } from '../../limits.js';
import { unauthenticated } from '../../http/caller.js';
import { createLoginThrottle, type LoginThrottle } from './login-throttle.js';

/** Counts one failed login for `key` under `rule` without a password check. */
function recordFailure(throttle: LoginThrottle, rule: string, key: string): void {
  const attempt = throttle.reserve({ [rule]: key });
  if (!('fail' in attempt)) throw new Error(`the ${rule} ${key} is already throttled`);
  attempt.fail();
}

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

  it('purges the user’s expired login tokens when they log in, keeping API and live ones', async () => {
    const db = world.stores.accounts.db;
    const user = world.adminB.userId;
    const past = new Date(Date.now() - 3 * 3600_000);
    await issueToken(db, { userId: user, kind: 'login', ttlSeconds: 60, now: past });
    await issueToken(db, { userId: user, kind: 'api', ttlSeconds: 60, now: past });
    const live = await issueToken(db, { userId: user, kind: 'login', ttlSeconds: 86_400 });
    const kinds = async () =>
      (await listTokens(db, user))
        .map(
          (t) =>
            `${t.kind} ${t.expires_at !== null && t.expires_at < new Date().toISOString() ? 'expired' : 'live'}`,
        )
        .sort();
    expect(await kinds()).toContain('login expired');
    expect((await login('admin-b', PASSWORD, '10.0.0.9')).statusCode).toBe(200);
    const after = await kinds();
    expect(after).not.toContain('login expired');
    expect(after).toContain('api expired');
    expect((await listTokens(db, user)).map((t) => t.id)).toContain(live.id);
  });

  it('answers a wrong password and an unknown user identically', async () => {
    const wrong = await login('member-a', 'not the password', '10.0.0.2');
    const unknown = await login('nobody-here', 'not the password', '10.0.0.2');
    const a = expectProblem(wrong, 401, 'unauthenticated');
    const b = expectProblem(unknown, 401, 'unauthenticated');
    expect({ ...a, requestId: '' }).toEqual({ ...b, requestId: '' });
  });

  it('refuses a username or password with U+0000 as invalid, on every backend', async () => {
    for (const payload of [
      { username: 'member-a\u0000', password: PASSWORD },
      { username: 'member-a', password: `${PASSWORD}\u0000` },
    ]) {
      const res = await call(world.app, {
        method: 'POST',
        url: '/auth/login/credentials',
        payload,
        remoteAddress: '10.0.0.3',
      });
      expect(expectProblem(res, 400, 'validation_failed').errors?.[0]?.message).toMatch(/U\+0000/);
    }
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

    const cases: [string, Record<string, string>, RegExp, boolean][] = [
      ['missing', {}, /required/, false],
      ['not bearer', { authorization: 'Basic Zm9vOmJhcg==' }, /Bearer/, false],
      ['malformed', { authorization: 'Bearer abc' }, /malformed/, true],
      ['unknown', { authorization: `Bearer pd_${'A'.repeat(43)}` }, /not valid/, true],
      ['expired', { authorization: `Bearer ${expired.secret}` }, /not valid/, true],
      ['revoked', { authorization: `Bearer ${revoked.secret}` }, /not valid/, true],
    ];
    const answers = new Map<string, unknown>();
    for (const [name, headers, detail, tokenSent] of cases) {
      const res = await call(world.app, { method: 'GET', url: '/api/v1/me', headers });
      const body = expectProblem(res, 401, 'unauthenticated');
      expect(body.detail, name).toMatch(detail);
      // The error code only when a token was sent (RFC 6750 §3.1).
      if (tokenSent) {
        expect(res.headers['www-authenticate'], name).toMatch(
          /^Bearer realm="api", error="invalid_token", error_description="[^"]+"$/,
        );
      } else {
        expect(res.headers['www-authenticate'], name).toBe('Bearer realm="api"');
      }
      answers.set(name, { ...body, requestId: '', header: res.headers['www-authenticate'] });
    }
    // Unknown, expired and revoked look alike: the answer is no oracle for a token's state.
    expect(answers.get('expired')).toEqual(answers.get('unknown'));
    expect(answers.get('revoked')).toEqual(answers.get('unknown'));
  });

  it('escapes quotes and backslashes in the challenge', () => {
    expect(unauthenticated('say "hi" \\ bye').headers['www-authenticate']).toBe(
      'Bearer realm="api", error="invalid_token", error_description="say \\"hi\\" \\\\ bye"',
    );
  });

  it('refuses credentials sent twice with 400, whichever would have won', async () => {
    const token = world.memberA.token;
    const both = await call(world.app, {
      method: 'GET',
      url: `/api/v1/dossiers?access_token=${token}`,
      token,
    });
    expect(expectProblem(both, 400, 'bad_request').detail).toMatch(/once/);
    const twiceInQuery = await call(world.app, {
      method: 'GET',
      url: `/api/v1/dossiers?access_token=${token}&access_token=${token}`,
    });
    expectProblem(twiceInQuery, 400, 'bad_request');
    const twoHeaders = await world.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: [`Bearer ${token}`, `Bearer ${world.memberB.token}`] as never },
    });
    expectProblem(twoHeaders, 400, 'bad_request');
  });

  it('answers a failed login with the bare challenge', async () => {
    const res = await login('member-a', 'not the password', '10.0.0.4');
    expectProblem(res, 401, 'unauthenticated');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="api"');
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
      recordFailure(throttle, 'username', victim);
    }
    expect((await login(victim, 'wrong', '10.1.0.1')).statusCode).toBe(401); // the last one
    const blocked = await login(victim, PASSWORD, '10.2.0.1');
    expectProblem(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login('member-b', PASSWORD, '10.2.0.1')).statusCode).toBe(200);
    // Eleven full password checks one after another, on a shared machine.
  }, 120_000);

  // In-memory, like the other throttle tests below: one backend suffices.
  if (backend === 'sqlite') {
    it(
      'evaluates at most the username limit of guesses that arrive at once, the right one last',
      async () => {
        const victim = 'admin-a';
        // In waves as large as the process checks at once, from as many addresses.
        const wave = limits.login.concurrentChecks;
        const statuses: number[] = [];
        for (let sent = 0; sent < 30; sent += wave) {
          const guesses = Array.from({ length: Math.min(wave, 30 - sent) }, (_, i) => {
            const n = sent + i;
            return login(victim, n === 29 ? PASSWORD : `guess ${String(n)}`, `10.3.0.${String(n)}`);
          });
          statuses.push(...(await Promise.all(guesses)).map((res) => res.statusCode));
        }
        const evaluated = statuses.filter((status) => status !== 429);
        expect(evaluated).toEqual(Array(limits.login.maxFailuresPerUsername).fill(401));
        expect(statuses[29]).toBe(429);
      },
      // Ten full password checks on a shared machine.
      120_000,
    );
  }

  it('throttles failed logins per client address, whatever the usernames', async () => {
    const ip = '10.9.9.9';
    for (let i = 1; i < limits.login.maxFailuresPerAddress; i++) {
      recordFailure(throttle, 'address', ip);
    }
    // One failure below the limit, a correct login still passes (and does not clear the count).
    expect((await login('member-a', PASSWORD, ip)).statusCode).toBe(200);
    expect((await login('ghost', 'wrong', ip)).statusCode).toBe(401); // the last one
    expectProblem(await login('member-a', PASSWORD, ip), 429, 'rate_limited');
    expect((await login('member-a', PASSWORD, '10.9.9.10')).statusCode).toBe(200);
  });

  if (backend === 'sqlite') {
    it('refuses logins beyond the checks an address may have under way, at once, while another address logs in', async () => {
      const answered: number[] = [];
      const track = (res: Awaited<ReturnType<typeof login>>) => {
        answered.push(res.statusCode);
        return res;
      };
      const bogus = Array.from({ length: 40 }, (_, i) =>
        login(`flood-${String(i)}`, 'wrong', '10.4.0.1').then(track),
      );
      const mine = login('member-b', PASSWORD, '10.4.0.2').then(track);
      const [results, correct] = await Promise.all([Promise.all(bogus), mine]);

      expect(correct.statusCode).toBe(200);
      const checked = results.filter((res) => res.statusCode === 401);
      const refused = results.filter((res) => res.statusCode !== 401);
      expect(checked).toHaveLength(limits.login.concurrentChecksPerAddress);
      for (const res of refused) {
        expect(expectProblem(res, 429, 'rate_limited').detail).toMatch(/under way/);
        expect(res.headers['retry-after']).toBe(String(limits.login.busyRetryAfterSeconds));
      }
      // Refused without waiting: every refusal was answered before any password check ended.
      expect(answered.slice(0, refused.length)).toEqual(refused.map(() => 429));
    }, 120_000);
  }

  if (backend === 'sqlite') {
    it('refuses logins beyond the checks the process may have under way with 503', async () => {
      const perAddress = limits.login.concurrentChecksPerAddress;
      const addresses = Math.ceil(limits.login.concurrentChecks / perAddress) + 1;
      const results = await Promise.all(
        Array.from({ length: addresses * perAddress }, (_, i) =>
          login(`crowd-${String(i)}`, 'wrong', `10.5.0.${String(i % addresses)}`),
        ),
      );
      const statuses = results.map((res) => res.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(
        limits.login.concurrentChecks,
      );
      const refused = results.filter((res) => res.statusCode !== 401);
      expect(refused.length).toBeGreaterThan(0);
      for (const res of refused) {
        expectProblem(res, 503, 'overloaded');
        expect(res.headers['retry-after']).toBe(String(limits.login.busyRetryAfterSeconds));
      }
    }, 120_000);
  }
});
