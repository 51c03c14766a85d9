import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { CHILD_TAG } from './run-tag.js';

/**
 * Processes whose environment has `name=value`: the children (and their children) a test run
 * started. Linux only (reads /proc); elsewhere none are found.
 */
export function findTaggedProcesses(name: string, value: string): number[] {
  if (!fs.existsSync('/proc/self/environ')) return [];
  const wanted = `${name}=${value}`;
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let environ: string;
    try {
      environ = fs.readFileSync(path.join('/proc', entry, 'environ'), 'latin1');
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (environ.split('\0').includes(wanted)) found.push(Number(entry));
  }
  return found;
}

/** Caches tools keep in the temp dir, not left behind by a test: tsx's (the PDF worker, run from
 * source, compiles TypeScript). They go with the run's temp dir. */
const CACHES = /^tsx-\d+$/;

/**
 * Gives the test processes a temp dir of their own for the run (TMPDIR, set in vitest.config.ts)
 * and checks at the end that the run left nothing behind: a process started by a test still
 * running, or anything in that temp dir. Both are cleaned up, and the run fails naming them, so
 * that a test that leaks is fixed rather than filling the machine.
 */
export default function setup(project: TestProject): () => void {
  const run = project.config.env.PROPDATA_TEST_RUN;
  const dir = project.config.env.TMPDIR;
  if (!run || !dir) throw new Error('vitest.config.ts must set PROPDATA_TEST_RUN and TMPDIR');
  fs.mkdirSync(dir, { recursive: true });
  return () => {
    const processes = findTaggedProcesses(CHILD_TAG, run);
    for (const pid of processes) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // exited meanwhile
      }
    }
    const entries = (fs.existsSync(dir) ? fs.readdirSync(dir) : []).filter(
      (entry) => !CACHES.test(entry),
    );
    fs.rmSync(dir, { recursive: true, force: true });
    const problems: string[] = [];
    if (processes.length > 0) {
      problems.push(
        `${String(processes.length)} process(es) started by tests still running (now killed): ${processes.join(', ')}`,
      );
    }
    if (entries.length > 0) {
      problems.push(
        `${String(entries.length)} entr(ies) left in the run's temp dir ${dir} (now removed): ${entries.slice(0, 20).join(', ')}`,
      );
    }
    if (problems.length > 0) {
      throw new Error(
        `The tests did not clean up after themselves:\n  ${problems.join('\n  ')}\n` +
          'Start processes with test/helpers/children.ts and make temp dirs with tempDir().',
      );
    }
  };
}
