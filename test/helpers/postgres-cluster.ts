import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.js';

/**
 * Starts a throw-away PostgreSQL cluster for the whole test run from the machine's binaries and
 * removes it afterwards. Without the binaries the PostgreSQL tests are skipped, except under
 * CI=true, where their absence fails the run.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin connection URL of the throw-away cluster, or '' when PostgreSQL is unavailable. */
    postgresUrl: string;
  }
}

export function findBinDir(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PROPDATA_PG_BIN) candidates.push(process.env.PROPDATA_PG_BIN);
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    for (const v of fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))) {
      candidates.push(path.join(root, v, 'bin'));
    }
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) candidates.push(path.dirname(which.stdout.trim()));
  return candidates.find(
    (dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')),
  );
}

// PostgreSQL refuses to run as root; as root the cluster belongs to the `postgres` user.
function runAs(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { prefix: ['runuser', '-u', 'postgres', '--'], uid, gid };
}

function run(prefix: string[], command: string, args: string[]): void {
  const [program, ...rest] = [...prefix, command, ...args];
  if (!program) throw new Error('nothing to run');
  const result = spawnSync(program, rest, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${command} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
}

/** A running throw-away cluster: its admin URL, its directory, and how to remove it. */
export interface Cluster {
  url: string;
  /** The cluster's own directory (readable by the server: files for COPY go here). */
  dir: string;
  stop(): void;
}

/** Starts a throw-away cluster from the binaries in `binDir`, on a free port. */
export async function startCluster(binDir: string): Promise<Cluster> {
  const user = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'propdata-pg-'));
  if (user.uid !== undefined && user.gid !== undefined) fs.chownSync(dir, user.uid, user.gid);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  // The cluster's control command, always on its data directory.
  const pgCtl = (...args: string[]) =>
    run(user.prefix, path.join(binDir, 'pg_ctl'), ['-D', dataDir, ...args]);
  try {
    run(user.prefix, path.join(binDir, 'initdb'), [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-locale',
      '--no-sync',
    ]);
    pgCtl(
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      'start',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
    );
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    stop() {
      try {
        pgCtl('-m', 'immediate', '-w', 'stop');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export default async function setup(project: TestProject): Promise<() => void> {
  const binDir = findBinDir();
  if (!binDir) {
    const message = 'PostgreSQL binaries (initdb, pg_ctl) not found: PostgreSQL tests are skipped';
    if (process.env.CI === 'true') throw new Error(`${message}, which CI=true does not allow`);
    process.stdout.write(`\n${message}\n`);
    project.provide('postgresUrl', '');
    return () => undefined;
  }
  const cluster = await startCluster(binDir);
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
