import { execFileSync } from 'node:child_process';
import net from 'node:net';
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
    'runs N processes on one port, replaces killed ones (all at once too), and stops them all on SIGTERM',
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
        // Pools that together could open more connections than PostgreSQL allows: said at start.
        PROPDATA_DB_POOL_SIZE: '1000',
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
      let [baseUrl] = [...urls];
      const warning =
        /warning: 2 worker\(s\) × PROPDATA_DB_POOL_SIZE 1000 = 2000 connections, leaving none of the \d+ PostgreSQL lets this role open for the command line/;
      if (backend === 'postgres') expect(server.output()).toMatch(warning);
      else expect(server.output()).not.toMatch(/warning/);

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

      // Every worker dead at once: the supervisor stays and starts them again (nothing else
      // keeps it alive meanwhile).
      for (const worker of after) process.kill(worker, 'SIGKILL');
      await until('the supervisor to notice both deaths', () =>
        after.every((w) => server.output().includes(`worker ${String(w)} exited`))
          ? true
          : undefined,
      );
      await until('two replacements listening', () => (listening().length >= 5 ? true : undefined));
      expect(child.exitCode).toBeNull();
      expect(workerPids(pid)).toHaveLength(2);
      // The shared listening socket closed with the last worker; the new one is bound afresh,
      // which on the port the test asked for (0: any free one) is another port.
      const relisted = listening().slice(4);
      expect(new Set(relisted).size).toBe(1);
      baseUrl = relisted[0];
      for (let i = 0; i < 10; i++) expect(await meRetried()).toBe(200);

      waitingFor = 'every process to stop on SIGTERM';
      expect(await server.stop()).toBe(0);
      expect(workerPids(pid)).toEqual([]);
    },
  );

  if (backend === 'sqlite') {
    it(
      "closes connections beyond each worker's cap at once and frees the idle ones",
      { timeout: SERVER_TEST_TIMEOUT },
      async () => {
        assertBuilt();
        const server = spawnServer(['serve', '--workers', '2'], {
          PROPDATA_DATA_DIR: referenceDataDir(),
          DATABASE_URL: await freshDatabaseUrl(backend),
          PROPDATA_MAX_CONNECTIONS: '16',
          // Idle connections would otherwise end by themselves within the test.
          PROPDATA_KEEP_ALIVE_TIMEOUT_MS: '3600000',
        });
        const sockets: net.Socket[] = [];
        onTestFinished(async () => {
          for (const socket of sockets) socket.destroy();
          const workers = workerPids(server.child.pid ?? 0);
          await stopChild(server.child);
          for (const pid of workers) {
            try {
              process.kill(pid, 'SIGKILL');
            } catch {
              // exited with the primary
            }
          }
        });
        await until('two workers listening', () =>
          listeningUrls(server).length >= 2 ? true : undefined,
        );
        const port = Number(new URL(listeningUrls(server)[0] ?? '').port);
        /** A connection asking for /health: whether it was answered or closed unanswered. */
        const ask = () =>
          new Promise<{ answered: boolean; socket: net.Socket; closed: Promise<void> }>(
            (resolve) => {
              const socket = net.connect({ port, host: '127.0.0.1' });
              sockets.push(socket);
              socket.on('error', () => undefined);
              const closed = new Promise<void>((done) => socket.once('close', () => done()));
              socket.once('data', () => resolve({ answered: true, socket, closed }));
              void closed.then(() => resolve({ answered: false, socket, closed }));
              socket.write('GET /health HTTP/1.1\r\nHost: propdata\r\n\r\n');
            },
          );
        // More connections than both workers take: each is answered (and stays open, idle) or
        // closed at once. None hangs, as it did when a worker handed it back to the primary.
        waitingFor = 'every connection answered or closed';
        const asked = [];
        for (let i = 0; i < 40; i++) asked.push(await ask());
        const answered = asked.filter((c) => c.answered);
        // Some were refused, and a refusal freed idle ones: an answered connection the server
        // closed, which nothing else would within the hour of keep-alive.
        expect(answered.length).toBeLessThan(asked.length);
        waitingFor = 'an idle connection freed';
        await Promise.race(answered.map((c) => c.closed));
        // No worker holds more than its cap: those still open when the last refusal was made.
        const open = answered.filter((c) => !c.socket.destroyed && c.socket.readyState === 'open');
        expect(open.length).toBeLessThanOrEqual(32);
        // And the workers serve new connections.
        waitingFor = 'a new connection served';
        let served = false;
        for (let attempt = 0; attempt < 100 && !served; attempt++) {
          const more = await ask();
          served = more.answered;
          more.socket.destroy();
        }
        expect(served).toBe(true);
        waitingFor = '';
      },
    );
  }
});
