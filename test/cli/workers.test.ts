import { execFileSync } from 'node:child_process';
import { expect, it, onTestFailed, onTestFinished } from 'vitest';
import { describeBackends, freshDatabaseUrl } from '../helpers/backends.js';
import { assertBuilt } from '../helpers/cli.js';
import { stopChild } from '../helpers/children.js';
import { tokenOfNewAccount } from '../helpers/fixtures.js';
import { referenceDataDir } from '../helpers/market.js';
import { listeningUrls, SERVER_TEST_TIMEOUT, spawnServer } from '../helpers/servers.js';

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

/**
 * Polls `probe` until it gives a value. No deadline of its own: the test's timeout ends a wait
 * that never succeeds, and the failure then names what was awaited.
 */
let waitingFor = '';
async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  waitingFor = what;
  for (;;) {
    const value = probe();
    if (value !== undefined) {
      waitingFor = '';
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describeBackends('propdata serve --workers', (backend) => {
  it(
    'runs N processes on one port, replaces a killed one, and stops them all on SIGTERM',
    // Several processes start, die and stop: a failed wait names what it waited for.
    { timeout: SERVER_TEST_TIMEOUT },
    async () => {
      assertBuilt();
      onTestFailed(() => {
        if (waitingFor) process.stderr.write(`\n--- was waiting for ${waitingFor}\n`);
      });
      const databaseUrl = await freshDatabaseUrl(backend);
      const server = spawnServer(['serve', '--workers', '2'], {
        PROPDATA_DATA_DIR: referenceDataDir(),
        DATABASE_URL: databaseUrl,
      });
      const child = server.child;
      // The primary first, so that it replaces no worker, then its workers.
      onTestFinished(async () => {
        const workers = workerPids(child.pid ?? 0);
        await stopChild(child);
        for (const pid of workers) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // exited with the primary
          }
        }
      });
      const listening = () => listeningUrls(server);
      await until('two workers listening', () => (listening().length >= 2 ? true : undefined));
      const urls = new Set(listening());
      expect(urls.size).toBe(1); // one shared port
      const [baseUrl] = [...urls];

      // Every worker uses the same account database.
      const token = await tokenOfNewAccount(databaseUrl, 'Workers', false);
      const me = async () =>
        (
          await fetch(`${String(baseUrl)}/api/v1/me`, {
            headers: { authorization: `Bearer ${token}` },
            // A lost connection fails the request, not the whole test; generous, as a loaded machine
            // can take seconds to answer.
            signal: AbortSignal.timeout(60_000),
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
        server.output().includes(`worker ${String(before[0])} exited`) ? true : undefined,
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

      waitingFor = 'every process to stop on SIGTERM';
      expect(await server.stop()).toBe(0);
      expect(workerPids(pid)).toEqual([]);
    },
  );
});
