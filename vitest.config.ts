import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// One id per test run: the test processes get a temp dir of their own, removed at the end of the
// run, and tag the processes they start, so that whatever a run leaves behind is found
// (test/helpers/leftovers.ts) without confusing it with another run on the same machine.
const run = randomBytes(4).toString('hex');

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: [
      'test/helpers/leftovers.ts',
      'test/helpers/postgres-cluster.ts',
      'test/helpers/market-template.ts',
    ],
    setupFiles: ['test/helpers/cleanup.ts'],
    env: { PROPDATA_TEST_RUN: run, TMPDIR: path.join(os.tmpdir(), `propdata-test-${run}`) },
    pool: 'forks',
    // Two files at a time, also on a 2-core machine (where Vitest would run one): much of a
    // file's time is spent waiting for the servers it started, PostgreSQL or the disk.
    maxWorkers: 2,
    // Timeouts only end a test that hangs; they are not a measure of speed. A loaded 2-core
    // machine can take many times the usual duration, and a test must not fail for that.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
