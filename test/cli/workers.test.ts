import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { openAccountDatabase } from '../../src/accounts/database.js';
import { createOrganization } from '../../src/accounts/organizations.js';
import { issueToken } from '../../src/accounts/tokens.js';
import { createUser } from '../../src/accounts/users.js';
import { describeBackends, freshDatabaseUrl, tempDir } from '../helpers/backends.js';
import { assertBuilt, BIN } from '../helpers/cli.js';

let primary: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  if (primary?.pid) {
    for (const pid of workerPids(primary.pid)) process.kill(pid, 'SIGKILL');
    primary.kill('SIGKILL');
  }
  primary = undefined;
});

function workerPids(primaryPid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(primaryPid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

let output = '';

async function until<T>(what: string, probe: () => T | undefined, ms = 45_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; output so far:\n${output.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describeBackends('propdata serve --workers', (backend) => {
  it(
    'runs N processes on one port, replaces a killed one, and stops them all on SIGTERM',
    // Several processes start, die and stop on a loaded machine: generous, but every wait below
    // has its own deadline and names what it waited for.
    { timeout: 240_000 },
    async () => {
      assertBuilt();
      const databaseUrl = await freshDatabaseUrl(backend);
      const child = spawn(process.execPath, [BIN, 'serve', '--workers', '2'], {
        env: {
          PATH: process.env.PATH ?? '',
          PORT: '0',
          LOG_LEVEL: 'info',
          PROPDATA_DATA_DIR: tempDir(),
          DATABASE_URL: databaseUrl,
        },
      });
      primary = child;
      output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const listening = () => [
        ...output.matchAll(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/g),
      ];
      await until(
        'two workers listening',
        () => (listening().length >= 2 ? true : undefined),
        60_000,
      );
      const urls = new Set(listening().map((m) => m[1]));
      expect(urls.size).toBe(1); // one shared port
      const [baseUrl] = [...urls];

      // Every worker uses the same account database.
      const accounts = await openAccountDatabase(databaseUrl);
      let token: string;
      try {
        const org = await createOrganization(accounts.db, 'Workers');
        const user = await createUser(accounts.db, {
          organizationId: org.id,
          username: 'workers',
          password: 'long enough password',
          isAdmin: false,
        });
        token = (await issueToken(accounts.db, { userId: user.id, kind: 'api', ttlSeconds: 600 }))
          .secret;
      } finally {
        await accounts.close();
      }
      const me = async () =>
        (
          await fetch(`${String(baseUrl)}/api/v1/me`, {
            headers: { authorization: `Bearer ${token}` },
            signal: AbortSignal.timeout(10_000),
          })
        ).status;
      for (let i = 0; i < 10; i++) expect(await me()).toBe(200);

      const pid = child.pid ?? 0;
      const before = workerPids(pid);
      expect(before).toHaveLength(2);
      process.kill(before[0] ?? 0, 'SIGKILL');
      // Connections the supervisor hands out before it learns of the death are lost (clients
      // retry them); the test starts once the supervisor has noticed.
      await until('the supervisor to notice the death', () =>
        output.includes(`worker ${String(before[0])} exited`) ? true : undefined,
      );
      // A kept-alive connection to the killed worker is reset once; clients retry on a new one.
      const meRetried = () => me().catch(me);
      for (let i = 0; i < 10; i++) expect(await meRetried()).toBe(200); // the other worker answers
      const after = await until('a replacement worker', () => {
        const pids = workerPids(pid);
        return pids.length === 2 && !pids.includes(before[0] ?? 0) ? pids : undefined;
      });
      expect(after).toContain(before[1]);
      await until('the replacement listening', () => (listening().length >= 3 ? true : undefined));
      for (let i = 0; i < 10; i++) expect(await meRetried()).toBe(200);

      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const code = await Promise.race([
        exited,
        new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 40_000)),
      ]);
      expect(code, output.slice(-3000)).toBe(0);
      expect(workerPids(pid)).toEqual([]);
    },
  );
});
