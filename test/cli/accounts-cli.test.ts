import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { openStores, type Stores } from '../../src/stores.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { describeBackends } from '../helpers/backends.js';
import { assertBuilt, freshCommandEnv, lastLine, runCli } from '../helpers/cli.js';
import { TEST_SERVER_ENV } from '../helpers/server-env.js';
import { coverForm } from '../helpers/multipart.js';
import { makePdf } from '../helpers/pdf.js';

describeBackends('propdata orgs/users/tokens', (backend) => {
  let env: Record<string, string>;
  beforeAll(async () => {
    assertBuilt();
    env = await freshCommandEnv(backend);
  });

  const cli = (...args: string[]) => runCli(args, env);
  /** `users create` of `username` in `org`, with any further options. */
  const createUser = (org: string, username: string, password: string, ...more: string[]) => {
    const options = ['--org', org, '--username', username, '--password', password];
    return cli('users', 'create', ...options, ...more);
  };

  /** One request to a server on the same stores as the commands (a process of its own would be
   * one too: each starts without cached tokens). */
  async function ask(options: InjectOptions): Promise<LightMyRequestResponse> {
    const config = loadConfig({ ...env, ...TEST_SERVER_ENV, LOG_LEVEL: 'silent' });
    const stores: Stores = await openStores(config);
    const app = await buildApp({ config, stores });
    try {
      return await app.inject(options);
    } finally {
      await app.close();
      await stores.close();
    }
  }

  async function whoAmI(token: string): Promise<number> {
    const res = await ask({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } });
    return res.statusCode;
  }

  /** A login's status and token. */
  async function logIn(username: string, password: string) {
    const res = await ask({
      method: 'POST',
      url: '/auth/login/credentials',
      payload: { username, password },
    });
    return { status: res.statusCode, token: res.json<{ access_token?: string }>().access_token };
  }

  it('creates an organization, users and a working token, then revokes it', async () => {
    const org = await cli('orgs', 'create', 'Acme Immobilien');
    expect(org.status, org.stderr).toBe(0);
    expect(org.stdout).toMatch(/created organization "Acme Immobilien"/);
    // A name's length is counted in characters, as a title's: 200 emoji are 200, not 400.
    const emoji = await cli('orgs', 'create', '🏠'.repeat(200));
    expect(emoji.status, emoji.stderr).toBe(0);
    const over = await cli('orgs', 'create', '🏠'.repeat(201));
    expect(over.status).toBe(1);
    expect(over.stderr).toMatch(/organization name must be 1-200 characters/);

    const admin = await createUser('Acme Immobilien', 'Boss', 's3cret-pass', '--admin');
    expect(admin.status, admin.stderr).toBe(0);
    expect(admin.stdout).toMatch(/created admin "boss"/);

    const created = await cli(
      'tokens',
      'create',
      '--username',
      'boss',
      '--ttl',
      '30d',
      '--label',
      'crm',
    );
    expect(created.status, created.stderr).toBe(0);
    const token = lastLine(created.stdout);
    expect(token).toMatch(/^pd_[A-Za-z0-9_-]{43}$/);
    expect(await whoAmI(token)).toBe(200);

    const listed = await cli('tokens', 'list', '--username', 'boss');
    expect(listed.stdout).toMatch(/api {2}active .* crm/);
    expect(listed.stdout).not.toContain(token);

    const revoked = await cli('tokens', 'revoke', token);
    expect(revoked.status, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(/revoked 1 token/);
    expect(await whoAmI(token)).toBe(401);

    const users = await cli('users', 'list');
    expect(users.stdout).toMatch(/boss {2}Acme Immobilien {2}admin/);
  });

  it("clears a leaver's own covers, which count in the organization's storage", async () => {
    await cli('orgs', 'create', 'Covers');
    await createUser('Covers', 'erik', 'erik-password');
    await createUser('Covers', 'fiona', 'fiona-password', '--admin');
    const bearer = async (username: string) =>
      `Bearer ${lastLine((await cli('tokens', 'create', '--username', username)).stdout)}`;
    const authorization = await bearer('erik');
    const pdf = Buffer.from(await makePdf(1));
    const upload = async (path: string, as: string) => {
      const form = coverForm(pdf);
      const res = await ask({
        method: 'POST',
        url: `/api/v1/user-settings/covers/${path}`,
        headers: { ...form.headers, authorization: as },
        payload: form.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    for (const side of ['front', 'back']) await upload(`user/${side}`, authorization);
    // The organization's cover, which an admin uploaded, is not the user's.
    const admin = await bearer('fiona');
    await upload('organization/front', admin);
    const covers = async (path: string) =>
      (
        await ask({ url: `/api/v1/user-settings/covers/${path}`, headers: { authorization } })
      ).json<{ items: unknown[] }>().items.length;
    expect([await covers('user/front'), await covers('user/back')]).toEqual([1, 1]);
    const cleared = await cli('users', 'clear-covers', '--username', 'Erik');
    expect(cleared.status, cleared.stderr).toBe(0);
    expect(cleared.stdout).toContain(
      `deleted 2 covers (${(2 * pdf.length).toLocaleString('en-US')} bytes) of "erik"`,
    );
    expect([await covers('user/front'), await covers('user/back')]).toEqual([0, 0]);
    expect(await covers('organization/front')).toBe(1);
    const missing = await cli('users', 'clear-covers', '--username', 'nobody');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/user "nobody" does not exist/);
  });

  it('revokes all tokens of a user and by id', async () => {
    await cli('orgs', 'create', 'Second');
    await createUser('Second', 'carla', 'another-pass');
    const t1 = lastLine((await cli('tokens', 'create', '--username', 'carla')).stdout);
    const t2 = lastLine(
      (await cli('tokens', 'create', '--username', 'carla', '--ttl', 'never')).stdout,
    );
    const id = /^([0-9a-f-]{36}) {2}/m.exec(
      (await cli('tokens', 'list', '--username', 'carla')).stdout,
    )?.[1];
    expect(id).toBeDefined();
    expect((await cli('tokens', 'revoke', '--id', id ?? '')).stdout).toMatch(/revoked 1 token/);
    expect((await cli('tokens', 'revoke', '--username', 'carla', '--all')).stdout).toMatch(
      /revoked 1 token/,
    );
    expect(await whoAmI(t1)).toBe(401);
    expect(await whoAmI(t2)).toBe(401);
  });

  it('disables a user (logins refused, tokens revoked and refused), enables and updates one', async () => {
    await cli('orgs', 'create', 'Leavers');
    await createUser('Leavers', 'dora', 'first-password', '--admin');
    const api = lastLine((await cli('tokens', 'create', '--username', 'dora')).stdout);
    const login = await logIn('dora', 'first-password');
    expect(login.status).toBe(200);
    expect(await whoAmI(login.token ?? '')).toBe(200);

    const disabled = await cli('users', 'disable', '--username', 'Dora');
    expect(disabled.status, disabled.stderr).toBe(0);
    expect(disabled.stdout).toMatch(/disabled "dora"; revoked 2 tokens/);
    expect(await whoAmI(api)).toBe(401);
    expect(await whoAmI(login.token ?? '')).toBe(401);
    // The right password is refused as a wrong one is: nothing says the account exists.
    const refused = await logIn('dora', 'first-password');
    expect(refused.status).toBe(401);
    expect(refused).toEqual({ ...(await logIn('nobody-here', 'first-password')) });
    const noToken = await cli('tokens', 'create', '--username', 'dora');
    expect(noToken.status).toBe(1);
    expect(noToken.stderr).toMatch(/user "dora" is disabled/);
    expect((await cli('users', 'list')).stdout).toMatch(/dora {2}Leavers {2}admin {2}disabled /);

    expect((await cli('users', 'enable', '--username', 'dora')).stdout).toMatch(/enabled "dora"$/m);
    // Tokens revoked stay revoked; a new login works.
    expect(await whoAmI(api)).toBe(401);
    const again = await logIn('dora', 'first-password');
    expect(again.status).toBe(200);
    const me = await ask({
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${again.token ?? ''}` },
    });
    expect(me.json<{ isAdmin: boolean }>().isAdmin).toBe(true);

    const newApi = lastLine((await cli('tokens', 'create', '--username', 'dora')).stdout);
    const updated = await cli(
      'users',
      'update',
      '--username',
      'dora',
      '--no-admin',
      '--password',
      'second-password',
    );
    expect(updated.status, updated.stderr).toBe(0);
    // The login token made with the old password goes; the API token stays.
    expect(updated.stdout).toMatch(/updated "dora"; revoked 1 token$/m);
    expect(await whoAmI(again.token ?? '')).toBe(401);
    const asRegular = await ask({
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${newApi}` },
    });
    expect(asRegular.statusCode).toBe(200);
    expect(asRegular.json<{ isAdmin: boolean }>().isAdmin).toBe(false);
    expect((await logIn('dora', 'first-password')).status).toBe(401);
    expect((await logIn('dora', 'second-password')).status).toBe(200);
  });

  // Refused for what the account store holds: on every backend.
  const storeRefusals: [string[], RegExp][] = [
    [['orgs', 'create', 'Acme Immobilien'], /already exists/],
    [
      ['users', 'create', '--org', 'Nope', '--username', 'zed', '--password', 'long-enough'],
      /organization "Nope" does not exist/,
    ],
    [
      [
        'users',
        'create',
        '--org',
        'Acme Immobilien',
        '--username',
        'BOSS',
        '--password',
        'long-enough',
      ],
      /taken/,
    ],
    [['tokens', 'create', '--username', 'ghost'], /user "ghost" does not exist/],
    [['tokens', 'revoke', `pd_${'B'.repeat(43)}`], /no such active token/],
    [['users', 'disable', '--username', 'ghost'], /user "ghost" does not exist/],
  ];
  // Refused for what was typed, whatever the store: on one backend (each case is a process).
  const inputRefusals: [string[], RegExp][] = [
    [
      [
        'users',
        'create',
        '--org',
        'Acme Immobilien',
        '--username',
        'x',
        '--password',
        'long-enough',
      ],
      /username must be/,
    ],
    [
      ['users', 'create', '--org', 'Acme Immobilien', '--username', 'zed', '--password', 'short'],
      /password must be/,
    ],
    [['orgs', 'create', 'Acme\u202Eevil'], /control or bidirectional formatting characters/],
    [['orgs', 'create', 'Line\u0085break'], /control or bidirectional formatting characters/],
    [['orgs', 'create', '\u200B\u2060'], /organization name must not be blank/],
    [
      [
        'users',
        'create',
        '--org',
        'Acme Immobilien',
        '--username',
        'eve\u202E',
        '--password',
        'long-enough',
      ],
      /username must be/,
    ],
    [['tokens', 'create', '--username', 'boss', '--ttl', '1y'], /--ttl "1y" is not a duration/],
    [['users', 'update', '--username', 'boss', '--password', 'short'], /password must be/],
  ];

  it.each(backend === 'sqlite' ? [...storeRefusals, ...inputRefusals] : storeRefusals)(
    'refuses %j with exit code 1 and a clear message',
    async (args, message) => {
      const result = await cli(...args);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    },
  );

  // A command called without what it needs is a usage error, as commander's own (exit 2). The
  // parsing is the same whatever the store: checked once, on SQLite.
  const usageErrors: [string[], RegExp][] = [
    [['tokens', 'revoke'], /exactly one of/],
    [['users', 'update', '--username', 'boss'], /say what to change/],
    [['users', 'create', '--org', 'Acme Immobilien'], /required option/],
  ];
  if (backend === 'sqlite') {
    it.each(usageErrors)(
      'refuses %j as a usage error: exit code 2 and a clear message',
      async (args, message) => {
        const result = await cli(...args);
        expect(result.status).toBe(2);
        expect(result.stderr).toMatch(message);
      },
    );

    it('exits 2 on usage errors', async () => {
      const unknown = await cli('frobnicate');
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toMatch(/unknown command 'frobnicate'/);
      const missing = await cli('users', 'create', '--org', 'Acme Immobilien');
      expect(missing.status).toBe(2);
      expect(missing.stderr).toMatch(/required option '--username <username>' not specified/);
    });
  }

  it('creating one username from several processes at once: one succeeds, the others print one line', async () => {
    const args = [
      'users',
      'create',
      '--org',
      'Acme Immobilien',
      '--username',
      'racer',
      '--password',
      'long-enough',
    ];
    const results = await Promise.all([1, 2, 3].map(() => cli(...args)));
    expect(results.filter((r) => r.status === 0)).toHaveLength(1);
    for (const lost of results.filter((r) => r.status !== 0)) {
      expect(lost.status).toBe(1);
      expect(lost.stderr.trim()).toMatch(/^[^\n]*username "racer" is taken$/);
    }
  });
});

it('reports a bad configuration at start with the variable name', async () => {
  const result = await runCli(['orgs', 'list'], { PORT: 'abc' });
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/Invalid configuration: PORT must be integer/);
});
