// A real `propdata serve` process (the compiled code: `npm run bench` builds first) for HTTP
// benchmarks, with its own account database, measured from the benchmark process as a client.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { openAccountDatabase } from '../src/accounts/database.js';
import { createOrganization } from '../src/accounts/organizations.js';
import { issueToken } from '../src/accounts/tokens.js';
import { createUser } from '../src/accounts/users.js';
import { WORKER_ARGUMENT } from '../src/work/capped-worker.js';
import { freePort } from '../test/helpers/free-port.js';

export interface BenchServer {
  url: string;
  /** The account database the server uses (benchmarks may add organizations to it). */
  databaseUrl: string;
  token: string;
  /** A token of a second organization, for benchmarks of fairness between organizations. */
  otherToken: string;
  /** One request on a kept-alive connection (node:http: lighter than fetch, so the client adds little). */
  post(path: string, body: string): Promise<{ status: number; body: string }>;
  /** Resident memory of the server's processes (the supervisor and its workers), bytes. */
  rssBytes(): number;
  /** Sends a signal to each of the server's processes; returns how many were signalled. */
  signal(name: NodeJS.Signals): number;
  stop(): Promise<void>;
}

function rssOf(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${String(pid)}/task/${String(pid)}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** `pid` and all the processes below it. */
function descendantsOf(pid: number): number[] {
  return [pid, ...childrenOf(pid).flatMap(descendantsOf)];
}

/** Whether `pid` is a worker process for files (src/work/capped-worker.ts). */
function isFileWorker(pid: number): boolean {
  try {
    const args = fs.readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').split('\0');
    return args.includes(WORKER_ARGUMENT);
  } catch {
    return false;
  }
}

/** Creates a bench organization and user in an SQLite database; returns an API token. */
export async function benchToken(databaseUrl: string, name = 'bench'): Promise<string> {
  const accounts = await openAccountDatabase(databaseUrl);
  try {
    const org = await createOrganization(accounts.db, name === 'bench' ? 'Bench' : name);
    const user = await createUser(accounts.db, {
      organizationId: org.id,
      username: name,
      password: 'bench password, not secret',
      isAdmin: true,
    });
    return (await issueToken(accounts.db, { userId: user.id, kind: 'api', ttlSeconds: 86_400 }))
      .secret;
  } finally {
    await accounts.close();
  }
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become ready in 60 s');
}

/** Starts `propdata serve` on a data dir that already holds market data. */
export async function startBenchServer(
  dataDir: string,
  env: Record<string, string> = {},
  /** Extra node flags for the server, e.g. `--cpu-prof` to profile it. */
  nodeArgs: string[] = [],
  /** Extra `serve` options, e.g. `--workers 2`. */
  serveArgs: string[] = [],
): Promise<BenchServer> {
  const databaseUrl = `sqlite:${path.join(dataDir, `bench-accounts-${Date.now()}.sqlite`)}`;
  const token = await benchToken(databaseUrl);
  const otherToken = await benchToken(databaseUrl, 'other');
  const port = await freePort();
  // BENCH_PROFILE_DIR=dir: the server writes a CPU profile of each of its threads there at exit.
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const child = spawn(
    process.execPath,
    [...profile, ...nodeArgs, path.join('bin', 'propdata.js'), 'serve', ...serveArgs],
    {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PROPDATA_DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        // Benchmarks measure throughput: the per-token rate limit would cut them off.
        PROPDATA_RATE_LIMIT_PER_MINUTE: '0',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, child);
  // The server's processes: with `--workers`, its cluster workers; below each, the worker
  // processes that check uploads and render reports, counted in its memory but not signalled
  // (they run none of the server's code, bench/full-gc.js included).
  const processes = () => descendantsOf(child.pid ?? 0);
  const serverProcesses = () => processes().filter((pid) => !isFileWorker(pid));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return {
    url,
    databaseUrl,
    token,
    otherToken,
    post: (pathname, body) =>
      new Promise((resolve, reject) => {
        const req = http.request(`${url}${pathname}`, { method: 'POST', agent, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      }),
    rssBytes: () => processes().reduce((sum, p) => sum + rssOf(p), 0),
    signal: (name) => {
      const pids = serverProcesses();
      for (const pid of pids) process.kill(pid, name);
      return pids.length;
    },
    stop: () =>
      new Promise((resolve) => {
        agent.destroy();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
