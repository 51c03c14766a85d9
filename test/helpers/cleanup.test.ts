import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runningChildren, spawnTracked, stopChild } from './children.js';
import { findTaggedProcesses } from './leftovers.js';
import { CHILD_TAG } from './run-tag.js';
import { startServer } from './servers.js';
import { removeTempDirs, tempDir, tempDirs } from './temp-dirs.js';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a server whose start fails', () => {
  // An account database that accepts connections and never answers: the server never listens.
  // Its connections are destroyed at the end: a socket nobody reads never sees the killed
  // server's end of it, so closing the listener would wait for ever.
  const connections = new Set<net.Socket>();
  const silent = net.createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
  });
  let port = 0;
  let pid: number | undefined;
  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    port = (silent.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const socket of connections) socket.destroy();
    silent.close();
    await new Promise<void>((resolve) => silent.on('close', resolve));
  });

  // This test fails on purpose, by timing out while it waits for the server to listen: a
  // failing test must not leave its server running.
  it.fails('times out waiting for the server to listen', { timeout: 3000 }, async () => {
    const starting = startServer(['serve'], {
      PROPDATA_DATA_DIR: tempDir(),
      DATABASE_URL: `postgres://nobody@127.0.0.1:${String(port)}/nothing`,
    });
    [pid] = runningChildren();
    expect(pid !== undefined && alive(pid)).toBe(true);
    await starting;
  });

  it('is killed when that test ends', () => {
    expect(pid).toBeDefined();
    expect(alive(pid ?? 0)).toBe(false);
    expect(runningChildren()).toEqual([]);
  });
});

describe('the end-of-run check', () => {
  it('finds the processes started by this run by their tag, until they are stopped', async () => {
    const run = process.env.PROPDATA_TEST_RUN ?? '';
    expect(run).not.toBe('');
    const child = spawnTracked(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {});
    const pid = child.pid ?? 0;
    expect(findTaggedProcesses(CHILD_TAG, run)).toContain(pid);
    expect(findTaggedProcesses(CHILD_TAG, 'another-run')).not.toContain(pid);
    await stopChild(child);
    expect(findTaggedProcesses(CHILD_TAG, run)).not.toContain(pid);
  });

  it('gives every test process the run temp dir, and tempDir() dirs are removed', () => {
    const dir = tempDir();
    expect(dir.startsWith(`${process.env.TMPDIR ?? 'unset'}/`)).toBe(true);
    expect(tempDirs()).toContain(dir);
    removeTempDirs();
    expect(fs.existsSync(dir)).toBe(false);
    expect(tempDirs()).toEqual([]);
  });
});
