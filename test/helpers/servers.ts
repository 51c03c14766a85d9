import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { onTestFailed } from 'vitest';
import { BIN } from './cli.js';
import { spawnTracked } from './children.js';
import { TEST_SERVER_ENV } from './server-env.js';

/**
 * Timeout of a test that starts servers: a start loads the whole app and opens the stores, which
 * on a loaded 2-core machine takes tens of seconds. A test that never gets its answer still ends,
 * with the server's output shown.
 */
export const SERVER_TEST_TIMEOUT = 300_000;

const LISTENING = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/;

/** A `propdata` process started by a test; killed when the test ends (test/helpers/children.ts). */
export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /**
   * Resolves once the output matches `pattern` (searched from `from`), rejects if the process
   * exits first. There is no deadline of its own: on a loaded machine a start may take long, and
   * the test's timeout ends a wait that never succeeds, with the output shown.
   */
  waitFor(pattern: RegExp, from?: number): Promise<RegExpExecArray>;
  /** Sends SIGTERM and resolves with the exit code once the process and its output have ended. */
  stop(): Promise<number | null>;
}

/**
 * Runs `propdata <args>` as a server on a free port, with the test settings (no load shedding,
 * no rate limit to speak of) unless `env` says otherwise. If the test fails, the output is shown.
 */
export function spawnServer(args: string[], env: Record<string, string>): ServerProcess {
  const child = spawnTracked(process.execPath, [BIN, ...args], {
    PORT: '0',
    LOG_LEVEL: 'info',
    ...TEST_SERVER_ENV,
    ...env,
  });
  let output = '';
  let ended = false;
  const changed = new Set<() => void>();
  const wake = () => {
    for (const listener of changed) listener();
  };
  const collect = (data: Buffer) => {
    output += data.toString();
    wake();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const closed = new Promise<number | null>((resolve) => {
    child.once('close', (code) => {
      ended = true;
      wake();
      resolve(code);
    });
  });
  try {
    onTestFailed(() => {
      process.stderr.write(`\n--- output of propdata ${args.join(' ')}:\n${output.slice(-4000)}\n`);
    });
  } catch {
    // Started outside a test.
  }

  const waitFor = (pattern: RegExp, from = 0) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output.slice(from));
        if (match) {
          changed.delete(check);
          resolve(match);
        } else if (ended) {
          changed.delete(check);
          reject(
            new Error(
              `propdata exited (${String(child.exitCode ?? child.signalCode)}) before printing ${String(pattern)}:\n${output.slice(-4000)}`,
            ),
          );
        }
      };
      changed.add(check);
      check();
    });

  return {
    child,
    output: () => output,
    waitFor,
    stop: () => {
      child.kill('SIGTERM');
      return closed;
    },
  };
}

/** `spawnServer`, resolved with the base URL once it listens. */
export async function startServer(
  args: string[],
  env: Record<string, string>,
): Promise<ServerProcess & { url: string }> {
  const server = spawnServer(args, env);
  const [, url = ''] = await server.waitFor(LISTENING);
  return { ...server, url };
}

/** Every base URL the server's processes announced so far (one line per listening process). */
export function listeningUrls(server: ServerProcess): string[] {
  return [...server.output().matchAll(new RegExp(LISTENING, 'g'))].map((m) => m[1] ?? '');
}
