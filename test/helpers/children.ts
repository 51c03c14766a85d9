import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { onTestFinished } from 'vitest';
import { CHILD_TAG } from './run-tag.js';

/**
 * Processes a test starts. Each is recorded the moment it is spawned, before anything can fail,
 * and killed when its test ends (or, if started outside a test, at the end of the file; see
 * test/helpers/cleanup.ts), whether the test passed or not.
 */
const running = new Set<ChildProcessWithoutNullStreams>();

/**
 * A child's environment: only `env`, the PATH, and the test run's temp dir and tag (children
 * inherit nothing else from the test process, so a developer's settings cannot change a test).
 */
export function childEnv(env: Record<string, string>): Record<string, string> {
  const run = process.env.PROPDATA_TEST_RUN;
  const tmp = process.env.TMPDIR;
  return {
    PATH: process.env.PATH ?? '',
    ...(run ? { [CHILD_TAG]: run } : {}),
    ...(tmp ? { TMPDIR: tmp } : {}),
    ...env,
  };
}

/** Spawns `command` with `childEnv(env)`, stdout and stderr piped, recorded for cleanup. */
export function spawnTracked(
  command: string,
  args: string[],
  env: Record<string, string>,
): ChildProcessWithoutNullStreams {
  const child = spawn(command, args, { env: childEnv(env), stdio: 'pipe' });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  try {
    onTestFinished(() => stopChild(child));
  } catch {
    // Started outside a test (in a hook): stopped at the end of the file.
  }
  return child;
}

/** Kills `child` (SIGKILL) unless it has exited, and waits until it has. */
export async function stopChild(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    running.delete(child);
    return;
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Kills every recorded child still running and waits for them. */
export async function stopChildren(): Promise<void> {
  await Promise.all([...running].map(stopChild));
}

/** Process ids of recorded children that have not exited. */
export function runningChildren(): number[] {
  return [...running].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
}

// A test process that ends without its hooks (a crash, a fatal error) still kills its children.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
