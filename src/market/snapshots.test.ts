import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/backends.js';
import { stopChild, spawnTracked } from '../../test/helpers/children.js';
import { assertBuilt, BIN } from '../../test/helpers/cli.js';
import { csv, snapshotRows, writeFile, OFFER_KEY_COLUMNS } from '../../test/helpers/market.js';
import { queryOne } from './duck.js';
import { importFile } from './import/run-import.js';
import { MarketStore } from './market-store.js';
import { acquireImportLock, currentSnapshot, marketPaths, processStart } from './snapshots.js';

const HEADER = [...OFFER_KEY_COLUMNS, 'salePrice', 'livingArea', 'postalCode'];

/** A process id no process has (Linux's largest is 2^22). */
const DEAD_PID = 2147483646;

function offersCsv(count: number, prefix: string): string {
  const rows = Array.from({ length: count }, (_, i) => [
    `${prefix}${i}`,
    'AT',
    'sale',
    'apartment',
    '2025-01-01',
    100_000 + i,
    50,
    '1010',
  ]);
  return csv(HEADER, rows);
}

describe('market snapshots', () => {
  it('swaps snapshots atomically under concurrent reads: every read sees old or new, whole', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    await importFile(dataDir, 'offers', writeFile(dir, 'a.csv', offersCsv(1000, 'a')));
    const store = await MarketStore.open(dataDir);
    const firstFile = store.snapshotFile;
    const counts = new Set<number>();
    let reading = true;
    const readers = Array.from({ length: 4 }, async () => {
      while (reading) {
        const n = await store.read(async (db) => {
          const row = await queryOne(
            db,
            'select count(*)::integer as n, count(distinct left(id, 1))::integer as kinds from offers',
          );
          return Number(row?.n) * 10 + Number(row?.kinds);
        });
        counts.add(n);
        await store.refresh();
      }
    });
    // While readers run: one import that adds 500 rows of another prefix.
    await importFile(dataDir, 'offers', writeFile(dir, 'b.csv', offersCsv(500, 'b')));
    await store.refresh();
    const after = await store.read(async (db) =>
      Number((await queryOne(db, 'select count(*)::integer as n from offers'))?.n),
    );
    reading = false;
    await Promise.all(readers);
    expect(after).toBe(1500);
    expect(store.snapshotFile).not.toBe(firstFile);
    // 1000 rows of one prefix, or 1500 rows of two: never anything in between.
    expect([...counts].every((c) => c === 10001 || c === 15002)).toBe(true);
    expect(counts.has(15002)).toBe(true);
    store.close();
  });

  it('refresh after a publish reaches it, even while an earlier refresh is opening an older snapshot', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    const paths = marketPaths(dataDir);
    await importFile(dataDir, 'offers', writeFile(dir, 'a.csv', offersCsv(10, 'a')));
    const store = await MarketStore.open(dataDir);
    await importFile(dataDir, 'offers', writeFile(dir, 'b.csv', offersCsv(10, 'b')));
    const older = fs.readFileSync(paths.current, 'utf8');
    await importFile(dataDir, 'offers', writeFile(dir, 'c.csv', offersCsv(10, 'c')));
    const newest = currentSnapshot(paths);
    // A timer's refresh reads the published snapshot (the older one) and starts opening it; the
    // newest is published meanwhile; the importer then refreshes.
    fs.writeFileSync(paths.current, older);
    const early = store.refresh();
    await Promise.resolve();
    fs.writeFileSync(paths.current, `${path.basename(newest ?? '')}\n`);
    expect(await store.refresh()).toBe(true);
    expect(await early).toBe(true);
    expect(store.snapshotFile).toBe(newest);
    const count = await store.read(async (db) =>
      Number((await queryOne(db, 'select count(*)::integer as n from offers'))?.n),
    );
    expect(count).toBe(30);
    store.close();
  });

  it('shares a refresh that has not started yet, and opens nothing once closed', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    await importFile(dataDir, 'offers', writeFile(dir, 'a.csv', offersCsv(10, 'a')));
    const store = await MarketStore.open(dataDir);
    const first = store.refresh();
    const second = store.refresh();
    expect(second).toBe(first);
    await first;
    await importFile(dataDir, 'offers', writeFile(dir, 'b.csv', offersCsv(10, 'b')));
    const before = store.snapshotFile;
    const pending = store.refresh();
    store.close();
    expect(await pending).toBe(false);
    expect(store.snapshotFile).toBe(before);
  });

  it('takes over an import lock its holder left, also one left under this very pid', () => {
    const paths = marketPaths(path.join(tempDir(), 'data'));
    fs.mkdirSync(paths.dir, { recursive: true });
    // A killed process of this pid, as a container's main process is at every start.
    fs.writeFileSync(paths.lock, `${String(process.pid)} another-start`);
    const release = acquireImportLock(paths);
    // Held by this process now: a second writer in it waits its turn like any other.
    expect(() => acquireImportLock(paths)).toThrow(
      `another import is running (process ${String(process.pid)})`,
    );
    release();
    expect(fs.existsSync(paths.lock)).toBe(false);
    // An old lock (the pid alone) of a process that is gone.
    fs.writeFileSync(paths.lock, '2147483646');
    acquireImportLock(paths)();
  });

  it.runIf(processStart(process.pid) !== undefined)(
    'takes over a lock whose pid now belongs to another process, not one its holder still has',
    () => {
      const paths = marketPaths(path.join(tempDir(), 'data'));
      fs.mkdirSync(paths.dir, { recursive: true });
      // The parent process (the test runner) lives; a killed import had its pid before it.
      const living = process.ppid;
      fs.writeFileSync(paths.lock, `${String(living)} killed-import 1`);
      acquireImportLock(paths)();
      // The living process itself holding it: refused.
      fs.writeFileSync(paths.lock, `${String(living)} its-token ${String(processStart(living))}`);
      expect(() => acquireImportLock(paths)).toThrow(
        `another import is running (process ${String(living)})`,
      );
      fs.rmSync(paths.lock);
    },
  );

  it('removes the files a process killed while taking the lock left, not those of a live one', () => {
    const paths = marketPaths(path.join(tempDir(), 'data'));
    fs.mkdirSync(paths.dir, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    const leftover = (name: string, content: string, mtime?: Date): string => {
      const file = `${paths.lock}.${name}`;
      fs.writeFileSync(file, content);
      if (mtime) fs.utimesSync(file, mtime, mtime);
      return file;
    };
    const dead = leftover('dead-token', `${String(DEAD_PID)} dead-token`, old);
    const thisPidEarlier = leftover('earlier', `${String(process.pid)} earlier`, old);
    // The parent (the test runner) is alive; a young file may still be being written.
    const live = leftover('live-token', `${String(process.ppid)} live-token`, old);
    const young = leftover('young', `${String(DEAD_PID)} young`);
    // An entry it cannot read as a file (here a directory) is left, and the import goes on.
    const unreadable = `${paths.lock}.unreadable`;
    fs.mkdirSync(unreadable);
    fs.utimesSync(unreadable, old, old);
    acquireImportLock(paths)();
    expect(fs.existsSync(paths.lock)).toBe(false);
    fs.rmdirSync(unreadable);
    expect(fs.existsSync(dead)).toBe(false);
    expect(fs.existsSync(thisPidEarlier)).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
    expect(fs.existsSync(young)).toBe(true);
    expect(fs.readdirSync(paths.dir).sort()).toEqual(
      ['import.lock.live-token', 'import.lock.young'].sort(),
    );
  });

  it('lets one process at a time hold the import lock, however often three contend for it and dead holders leave it', async () => {
    const dir = path.join(tempDir(), 'data');
    const module = JSON.stringify(new URL('./snapshots.ts', import.meta.url).href);
    // Each takes and gives back the lock 3,000 times; inside it, a file only one can create.
    // Every third turn a dead process's lock is left where there is none, to be taken over.
    const script = `
      import fs from 'node:fs';
      const { acquireImportLock, marketPaths } = await import(${module});
      const paths = marketPaths(${JSON.stringify(dir)});
      fs.mkdirSync(paths.dir, { recursive: true });
      const inside = paths.lock + '.inside';
      let held = 0, both = 0;
      for (let i = 0; i < 3000; i++) {
        if (i % 3 === 0) {
          try { fs.writeFileSync(paths.lock, '${DEAD_PID} gone', { flag: 'wx' }); } catch {}
        }
        let release;
        try { release = acquireImportLock(paths); } catch { continue; }
        held++;
        try { fs.writeFileSync(inside, '', { flag: 'wx' }); fs.rmSync(inside); } catch { both++; }
        release();
      }
      console.log(JSON.stringify({ held, both }));`;
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const contenders = [0, 1, 2].map(() =>
      spawnTracked(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], {}),
    );
    const outcomes = await Promise.all(
      contenders.map(
        (child) =>
          new Promise<{ held: number; both: number }>((resolve, reject) => {
            let out = '';
            child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
            child.once('exit', (code) => {
              if (code === 0) resolve(JSON.parse(out) as { held: number; both: number });
              else reject(new Error(`a contender ended with ${String(code)}`));
            });
          }),
      ),
    );
    for (const { held, both } of outcomes) {
      expect(held).toBeGreaterThan(0);
      expect(both).toBe(0);
    }
    // Nothing of a contender is left behind: no file of its own, no takeover guard; at most a
    // dead process's lock, left last.
    const { dir: marketDir, lock } = marketPaths(dir);
    const left = fs.readdirSync(marketDir);
    expect(left.filter((name) => name !== path.basename(lock))).toEqual([]);
    if (left.length > 0) expect(fs.readFileSync(lock, 'utf8')).toBe(`${String(DEAD_PID)} gone`);
  });

  it('leaves the previous data intact when an import is killed, and the next import recovers', async () => {
    assertBuilt();
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    await importFile(dataDir, 'offers', writeFile(dir, 'small.csv', offersCsv(10, 's')));
    const before = currentSnapshot(marketPaths(dataDir));
    const big = writeFile(dir, 'big.csv', offersCsv(400_000, 'k'));

    const child = spawnTracked(process.execPath, [BIN, 'import', 'offers', big], {
      PROPDATA_DATA_DIR: dataDir,
    });
    // Kill it mid-import: once it holds the import lock and has begun writing the new snapshot.
    // Polled, without a deadline of its own: on a loaded machine the start alone takes seconds.
    const paths = marketPaths(dataDir);
    const writing = () =>
      fs.existsSync(paths.lock) &&
      fs
        .readdirSync(paths.dir)
        .some((f) => /^snapshot-.*\.duckdb$/.test(f) && path.join(paths.dir, f) !== before);
    while (!writing()) {
      if (child.exitCode !== null) throw new Error('the import ended before it was killed');
      await new Promise((r) => setTimeout(r, 10));
    }
    await stopChild(child);
    const lock = paths.lock;
    // The stale lock shows the process died mid-import, before it could publish or clean up.
    expect(fs.existsSync(lock)).toBe(true);

    expect(currentSnapshot(marketPaths(dataDir))).toBe(before);
    expect(await snapshotRows(dataDir, 'select count(*)::integer as n from offers')).toEqual([
      { n: 10 },
    ]);
    const store = await MarketStore.open(dataDir);
    expect(
      await store.read(
        async (db) => (await queryOne(db, 'select count(*)::integer as n from offers'))?.n,
      ),
    ).toBe(10);
    store.close();

    // The lock of the killed process is taken over; its half-written file is cleaned up.
    const report = await importFile(
      dataDir,
      'offers',
      writeFile(dir, 'next.csv', offersCsv(5, 'n')),
    );
    expect(report.total).toBe(15);
    const files = fs
      .readdirSync(path.join(dataDir, 'market'))
      .filter((f) => f.startsWith('snapshot-'));
    expect(files.sort()).toEqual(
      [
        path.basename(before ?? ''),
        path.basename(currentSnapshot(marketPaths(dataDir)) ?? ''),
      ].sort(),
    );
  });
});
