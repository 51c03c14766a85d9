import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Every directory `tempDir` made in this test process, removed by `removeTempDirs`. */
const made = new Set<string>();

/**
 * A new, empty directory under the test run's temp dir. It is recorded before it is returned, so
 * it is removed at the end of the test file (test/helpers/cleanup.ts) even when the test fails.
 */
export function tempDir(prefix = 'propdata-test-'): string {
  // The run's temp dir (TMPDIR, see vitest.config.ts) exists unless a test ran without the
  // global setup; making it here costs nothing.
  fs.mkdirSync(os.tmpdir(), { recursive: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every directory `tempDir` made so far. */
export function removeTempDirs(): void {
  for (const dir of made) {
    fs.rmSync(dir, { recursive: true, force: true });
    made.delete(dir);
  }
}

/** Directories made by `tempDir` and not removed yet. */
export function tempDirs(): string[] {
  return [...made];
}
