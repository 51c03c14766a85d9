import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Market data lives in immutable DuckDB files ("snapshots") under `<data dir>/market`. The file
 * `CURRENT` names the one in use. An import writes a complete new snapshot next to it and then
 * replaces `CURRENT` with an atomic rename, so a reader sees the old data or the new, never half
 * an import, and a crash mid-import leaves `CURRENT` (and the data it names) untouched.
 */
export interface MarketPaths {
  dir: string;
  current: string;
  lock: string;
}

export function marketPaths(dataDir: string): MarketPaths {
  const dir = path.join(dataDir, 'market');
  return { dir, current: path.join(dir, 'CURRENT'), lock: path.join(dir, 'import.lock') };
}

const SNAPSHOT_PATTERN = /^snapshot-[\w-]+\.duckdb(\.wal)?$/;

/** Full path of the snapshot in use, or null before the first one exists. */
export function currentSnapshot(paths: MarketPaths): string | null {
  try {
    const name = fs.readFileSync(paths.current, 'utf8').trim();
    return name ? path.join(paths.dir, name) : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export function newSnapshotPath(paths: MarketPaths): string {
  fs.mkdirSync(paths.dir, { recursive: true });
  const stamp = new Date().toISOString().replaceAll(/[:.]/g, '').replace('T', '-');
  return path.join(paths.dir, `snapshot-${stamp}-${randomBytes(4).toString('hex')}.duckdb`);
}

function fsyncPath(target: string): void {
  const fd = fs.openSync(target, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes `snapshot` the current one: durable file first, then an atomic rename of the pointer. */
export function publishSnapshot(paths: MarketPaths, snapshot: string): void {
  fsyncPath(snapshot);
  const temp = `${paths.current}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${path.basename(snapshot)}\n`);
  fsyncPath(temp);
  fs.renameSync(temp, paths.current);
  fsyncPath(paths.dir);
}

/**
 * Removes snapshot files other than the current one and the one before it (kept so that
 * processes still reading it finish undisturbed, and as a manual rollback). Leftovers of crashed
 * imports go too. Only called while holding the import lock.
 */
export function removeOldSnapshots(paths: MarketPaths, keep: (string | null)[]): void {
  const kept = new Set(keep.filter((k): k is string => k !== null).map((k) => path.basename(k)));
  for (const name of fs.readdirSync(paths.dir)) {
    if (!SNAPSHOT_PATTERN.test(name)) continue;
    if (kept.has(name.replace(/\.wal$/, ''))) continue;
    fs.rmSync(path.join(paths.dir, name), { force: true });
  }
  for (const name of fs.readdirSync(paths.dir)) {
    if (name.startsWith('CURRENT.') && name.endsWith('.tmp')) {
      fs.rmSync(path.join(paths.dir, name), { force: true });
    }
  }
}

export class ImportBusyError extends Error {}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * This process among all that had its pid: a container's main process has the same pid (1)
 * at every start, so a lock a killed one left would otherwise look held by the live one.
 */
const PROCESS_TOKEN = randomUUID();

/**
 * When the process of `pid` started (clock ticks since boot, Linux's `/proc/<pid>/stat`), or
 * undefined where the system does not say: with it, a lock names its holder beyond its pid,
 * which the system gives to a new process once the holder is gone.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // The name in parentheses may hold spaces and parentheses; the fields after it do not.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * Whether the lock's holder (`<pid> <token> <start>`; older locks: `<pid> <token>` or `<pid>`)
 * may still be at work: a process of its pid lives, is not this one under another token, and
 * started when the holder did (a killed import's pid given to another process — in a
 * container, pids are few and come round again — does not hold the lock for ever).
 */
function lockHeld(content: string): number | undefined {
  const [pidText = '', token, start] = content.trim().split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return undefined;
  if (pid === process.pid && token !== PROCESS_TOKEN) return undefined;
  const startNow = processStart(pid);
  if (start !== undefined && startNow !== undefined && start !== startNow) return undefined;
  return pid;
}

/**
 * One writer at a time per data dir; a lock left by a killed process is taken over. The lock
 * appears whole: written to a file of this process's own, then linked to the lock's name,
 * which fails where it exists (created and then written, another process reading it between
 * the two found it empty, took it for a dead holder's and took it over: both held it). It is
 * released only while it is still this process's.
 */
export function acquireImportLock(paths: MarketPaths): () => void {
  fs.mkdirSync(paths.dir, { recursive: true });
  const content = [process.pid, PROCESS_TOKEN, processStart(process.pid)].join(' ').trim();
  const own = `${paths.lock}.${PROCESS_TOKEN}`;
  fs.writeFileSync(own, content);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.linkSync(own, paths.lock);
        // Tidying only: an entry it cannot read must not fail the import holding the lock.
        try {
          removeDeadOwnFiles(paths.lock, own);
        } catch {
          // Left for the next import.
        }
        return () => {
          if (readLock(paths.lock) === content) fs.rmSync(paths.lock, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const held = readLock(paths.lock);
        const pid = held === undefined ? undefined : lockHeld(held);
        if (held !== undefined && pid !== undefined) {
          throw new ImportBusyError(`another import is running (process ${String(pid)})`);
        }
        if (held !== undefined) takeOverStale(paths.lock, held);
      }
    }
  } finally {
    fs.rmSync(own, { force: true });
  }
  throw new ImportBusyError('could not take the import lock');
}

/**
 * Removes the files of their own (`import.lock.<token>`) that processes killed while taking
 * the lock left behind: each names its writer as the lock does, and one whose writer is gone
 * would otherwise stay in the market directory for good.
 */
function removeDeadOwnFiles(lock: string, own: string): void {
  const prefix = `${path.basename(lock)}.`;
  for (const name of fs.readdirSync(path.dirname(lock))) {
    const file = path.join(path.dirname(lock), name);
    if (!name.startsWith(prefix) || file === own) continue;
    if (name === `${prefix}${TAKEOVER_GUARD_SUFFIX}`) continue;
    // A young one may be a live process's, still being written (and read part-way).
    const since = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (since === undefined || Date.now() - since < STALE_FILE_MS) continue;
    const content = readLock(file);
    if (content !== undefined && lockHeld(content) === undefined) fs.rmSync(file, { force: true });
  }
}

/** The lock's content, or undefined where it went away meanwhile. */
function readLock(lock: string): string | undefined {
  try {
    return fs.readFileSync(lock, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const TAKEOVER_GUARD_SUFFIX = 'takeover';

/** A takeover guard or own file older than this was left by a process that died holding it. */
const STALE_FILE_MS = 10_000;

/**
 * Removes a dead holder's lock, and only that: one process at a time (under a guard directory,
 * which only one can create), and only while the lock still reads as the dead holder's. Nobody
 * can put a lock of their own in its place meanwhile (linking fails while it exists), so what is
 * removed is the dead one. Moved aside and put back instead, a live lock had been left out for
 * a moment, and a third process had taken it in that moment: two held it.
 */
function takeOverStale(lock: string, stale: string): void {
  const guard = `${lock}.${TAKEOVER_GUARD_SUFFIX}`;
  try {
    fs.mkdirSync(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another process is taking it over; a guard left by a dead one is removed by its age.
    const since = fs.statSync(guard, { throwIfNoEntry: false })?.mtimeMs;
    if (since !== undefined && Date.now() - since > STALE_FILE_MS) {
      fs.rmSync(guard, { recursive: true, force: true });
    }
    return;
  }
  try {
    if (readLock(lock) === stale) fs.rmSync(lock, { force: true });
  } finally {
    fs.rmSync(guard, { recursive: true, force: true });
  }
}
