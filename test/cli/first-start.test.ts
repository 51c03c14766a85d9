import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { generateDemoData } from '../../src/market/generate/generate.js';
import { describeBackends, tempDir } from '../helpers/backends.js';
import { assertBuilt, freshCommandEnv } from '../helpers/cli.js';
import { spawnTracked, stopChild } from '../helpers/children.js';
import {
  listeningUrls,
  SERVER_TEST_TIMEOUT,
  spawnServer,
  startServer,
  type ServerProcess,
} from '../helpers/servers.js';

/** The last line of the first-start banner. */
const BANNER_END = /API documentation: \S+\/docs\n/;

/**
 * The request to `path` has been answered and logged: every line the server printed before it
 * (a banner, say) is in the output too, since both go to stdout in order.
 */
async function request(server: ServerProcess & { url: string }, path: string, init?: RequestInit) {
  const from = server.output().length;
  const res = await fetch(`${server.url}${path}`, init);
  await server.waitFor(/"msg":"request completed"/, from);
  return res;
}

// Generating the 300,000 demo offers is the long part of a first start ("about 20 s" on a quiet
// machine). It does not depend on the account store, so it runs once, here, with a deadline many
// times that; the account tests below start on a small market generated beforehand.
it(
  'on an empty data dir, generates the demo market before it listens',
  { timeout: 300_000 },
  async () => {
    assertBuilt();
    const server = await startServer(['serve', '--demo'], { PROPDATA_DATA_DIR: tempDir() });
    await server.waitFor(BANNER_END);
    const output = server.output();
    const generating = output.indexOf('First start: generating 300000 demo offers');
    expect(generating).toBeGreaterThanOrEqual(0);
    expect(generating).toBeLessThan(output.indexOf('Server listening at'));
    expect(output).toMatch(/First start: created demo accounts/);
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(await server.stop()).toBe(0);
  },
);

it(
  'waits while another process writes its data dir’s market data, instead of failing',
  { timeout: SERVER_TEST_TIMEOUT },
  async () => {
    assertBuilt();
    const dir = tempDir();
    // A live process holds the market's import lock, as a server generating the demo market or
    // an import does.
    const holder = spawnTracked(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {});
    fs.mkdirSync(path.join(dir, 'market'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'market', 'import.lock'), String(holder.pid));
    const server = spawnServer(['serve'], { PROPDATA_DATA_DIR: dir });
    await server.waitFor(
      new RegExp(
        `another import is running \\(process ${String(holder.pid)}\\) on this data dir; waiting for it`,
      ),
    );
    // The holder ends (here: dies, leaving its lock); the server goes on and serves.
    await stopChild(holder);
    await server.waitFor(/Server listening at/);
    const [url] = listeningUrls(server);
    expect((await fetch(`${String(url)}/health`)).status).toBe(200);
    expect(server.output()).not.toMatch(/unexpected error/);
    expect(await server.stop()).toBe(0);
  },
);

describeBackends('first start', (backend) => {
  it(
    'prints demo accounts with working tokens once, and shuts down cleanly on SIGTERM',
    {
      timeout: SERVER_TEST_TIMEOUT,
    },
    async () => {
      assertBuilt();
      const env = await freshCommandEnv(backend);
      await generateDemoData(env.PROPDATA_DATA_DIR, { offers: 200, projects: 5, seed: 1 });

      const first = await startServer(['serve', '--demo'], env);
      await first.waitFor(BANNER_END);
      // The log (JSON lines) shares stdout with the banner and may land between its lines.
      const printed = first.output();
      const banner = printed
        .split('\n')
        .filter((line) => !line.startsWith('{'))
        .join('\n');
      expect(banner).not.toMatch(/generating/); // the market was there already
      expect(banner).toMatch(/First start: created demo accounts/);
      const admin = /admin {2}username (\S+) {2}password (\S+)\s+token (pd_\S+)/.exec(banner);
      const user = /user {3}username (\S+) {2}password (\S+)\s+token (pd_\S+)/.exec(banner);
      expect(admin?.[1]).toBe('demo-admin');
      expect(user?.[1]).toBe('demo-user');
      expect(banner).toMatch(/curl -s -H 'Authorization: Bearer pd_/);

      const me = await request(first, '/api/v1/me', {
        headers: { authorization: `Bearer ${admin?.[3] ?? ''}` },
      });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({
        username: 'demo-admin',
        isAdmin: true,
        organizationName: 'Demo Realty',
      });

      const login = await request(first, '/auth/login/credentials', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: user?.[1], password: user?.[2] }),
      });
      expect(login.status).toBe(200);
      // The log of the requests that follow the banner holds neither the password nor the token.
      const log = first.output().slice(printed.length);
      expect(log).toMatch(/auth\/login\/credentials/);
      expect(log).not.toContain(user?.[2] ?? 'unreachable');
      expect(log).not.toContain(admin?.[3] ?? 'unreachable');

      expect(await first.stop()).toBe(0);
      expect(first.output()).toMatch(/shutting down/);

      const second = await startServer(['serve', '--demo'], env);
      await request(second, '/health');
      expect(second.output()).not.toMatch(/First start|demo-admin|pd_/);
      expect(await second.stop()).toBe(0);
    },
  );
});
