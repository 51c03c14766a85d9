import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { AccountBackend } from '../../src/accounts/database.js';
import { freshDatabaseUrl } from './backends.js';
import { spawnTracked } from './children.js';
import { referenceDataDir } from './market.js';

export const BIN = path.resolve('bin/propdata.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `propdata` command (the built package bin) with a test environment. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnTracked(process.execPath, [BIN, ...args], { LOG_LEVEL: 'warn', ...env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

export function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}

/** The CLI runs compiled code; fail with a clear hint when `npm run build` was not run. */
export function assertBuilt(): void {
  const probe = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
  if (probe.status !== 0) throw new Error(`run "npm run build" first: ${probe.stderr}`);
}

/** Where a command keeps its data: a new data dir with the reference divisions, a fresh account
 * database of `backend`. */
export async function freshCommandEnv(
  backend: AccountBackend,
): Promise<{ PROPDATA_DATA_DIR: string; DATABASE_URL: string }> {
  return { PROPDATA_DATA_DIR: referenceDataDir(), DATABASE_URL: await freshDatabaseUrl(backend) };
}
