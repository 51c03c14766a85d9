import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawnTracked, stopChild } from '../../test/helpers/children.js';
import type { ProbeAnswer, ProbeRequest } from '../../test/helpers/probe-worker.js';
import type { AppError } from '../http/problem.js';
import { CappedWorker, workerStopped } from './capped-worker.js';

/** Whether process `pid` still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until process `pid` is gone (a killed process takes a moment to be reaped). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 500 && alive(pid); i++) await new Promise((r) => setTimeout(r, 10));
  return !alive(pid);
}

const workers: CappedWorker<ProbeRequest, ProbeAnswer, ProbeAnswer>[] = [];
afterEach(() => Promise.all(workers.splice(0).map((w) => w.close())));

function probe(timeoutMs = 600_000, residentMb = 1024) {
  const worker = new CappedWorker<ProbeRequest, ProbeAnswer, ProbeAnswer>({
    base: new URL('../../test/helpers/probe-worker.ts', import.meta.url).href,
    name: 'probe-worker',
    heapMb: 32,
    stackMb: 2,
    timeoutMs,
    residentMb,
    settle: (answer) => answer,
    errors: {
      closed: 'probe is closed',
      exited: (why) => new Error(`probe exited: ${why}`),
      timedOut: () => new Error('probe timed out'),
      outOfMemory: () => new Error('probe out of memory'),
    },
  });
  workers.push(worker);
  return worker;
}

describe('capped worker process', () => {
  it('runs jobs in a process of its own, and passes bytes both ways as they are', async () => {
    const worker = probe();
    const bytes = new Uint8Array([0, 1, 2, 255, 128]);
    const answer = await worker.run({ act: 'echo', bytes });
    expect(answer.pid).not.toBe(process.pid);
    expect(answer.pid).toBe(worker.processId);
    expect(answer.bytes).toBeInstanceOf(Uint8Array);
    expect([...(answer.bytes ?? [])]).toEqual([0, 1, 2, 255, 128]);
    // The same process answers the next job.
    expect((await worker.run({ act: 'echo' })).pid).toBe(answer.pid);
  });

  it('a worker gets the server’s environment without its secrets', async () => {
    const secrets = {
      DATABASE_URL: 'postgres://propdata:secret@db.example/propdata',
      PGPASSWORD: 'secret',
      PROPDATA_METRICS_TOKEN: 'a'.repeat(32),
    };
    for (const [name, value] of Object.entries(secrets)) vi.stubEnv(name, value);
    vi.stubEnv('PROPDATA_DATA_DIR', '/srv/propdata');
    try {
      const { environment } = await probe().run({ act: 'env' });
      expect(environment).toEqual(expect.arrayContaining(['PATH', 'PROPDATA_DATA_DIR']));
      for (const name of Object.keys(secrets)) expect(environment).not.toContain(name);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('a worker holding more than its resident bound after a job is replaced', async () => {
    // Any worker holds more than 1 MB: each job leaves it over the bound.
    const worker = probe(600_000, 1);
    const first = await worker.run({ act: 'echo' });
    expect(first.residentBytes).toBeGreaterThan(2 ** 20);
    expect(await gone(first.pid)).toBe(true);
    const second = (await worker.run({ act: 'echo' })).pid;
    expect(second).not.toBe(first.pid);
    // Under the bound, the same worker answers again (the first test's case).
  });

  it('a worker killed while idle is replaced at the next job', async () => {
    const worker = probe();
    const first = (await worker.run({ act: 'echo' })).pid;
    process.kill(first, 'SIGKILL');
    expect(await gone(first)).toBe(true);
    const next = (await worker.run({ act: 'echo' })).pid;
    expect(next).not.toBe(first);
  });

  it('a worker that dies fails its job only, saying why; the next job gets a fresh one', async () => {
    const worker = probe();
    const first = (await worker.run({ act: 'echo' })).pid;
    await expect(worker.run({ act: 'die' })).rejects.toThrow(
      'probe exited: probe worker: dying as asked',
    );
    expect(await gone(first)).toBe(true);
    const next = (await worker.run({ act: 'echo' })).pid;
    expect(next).not.toBe(first);
  });

  it('a worker stopped from outside is a 503 to retry, its last words in the log only', async () => {
    const worker = new CappedWorker<ProbeRequest, ProbeAnswer, ProbeAnswer>({
      base: new URL('../../test/helpers/probe-worker.ts', import.meta.url).href,
      name: 'probe-worker',
      heapMb: 32,
      stackMb: 2,
      timeoutMs: 600_000,
      residentMb: 1024,
      settle: (answer) => answer,
      errors: {
        closed: 'probe is closed',
        exited: (why) => workerStopped('file check', why),
        timedOut: () => new Error('probe timed out'),
      },
    });
    workers.push(worker);
    const error = await worker.run({ act: 'die' }).then(
      () => undefined,
      (reason: unknown) => reason as AppError,
    );
    expect(error).toMatchObject({
      status: 503,
      code: 'overloaded',
      headers: { 'retry-after': '5' },
      detail: 'The file check stopped before it answered; try again',
    });
    expect((error?.cause as Error).message).toBe('file check exited: probe worker: dying as asked');
  });

  it('a worker past its heap (a V8 fatal error) is answered as out of memory', async () => {
    const worker = probe();
    await expect(worker.run({ act: 'allocate' })).rejects.toThrow('probe out of memory');
    await expect(worker.run({ act: 'echo' })).resolves.toMatchObject({ pid: worker.processId });
  });

  it('a worker past the deadline is killed', async () => {
    // The deadline runs from the request; a worker's start (compiling TypeScript from source:
    // seconds on a loaded machine) fits in it five times over.
    const started = performance.now();
    await probe().run({ act: 'echo' });
    const worker = probe(Math.max(2000, 5 * (performance.now() - started)));
    const pid = (await worker.run({ act: 'echo' })).pid;
    await expect(worker.run({ act: 'spin' })).rejects.toThrow('probe timed out');
    expect(await gone(pid)).toBe(true);
    expect(worker.processId).toBeUndefined();
  }, 180_000);

  it('closing kills the worker, and later jobs are refused', async () => {
    const worker = probe();
    const pid = (await worker.run({ act: 'echo' })).pid;
    await worker.close();
    expect(alive(pid)).toBe(false);
    expect(() => worker.run({ act: 'echo' })).toThrow('probe is closed');
  });

  it('a worker ends with the process that owns it, however that one ends', async () => {
    // An owner of its own, killed without a chance to close its worker.
    const owner = ownerProcess(`
      console.log((await worker.run({ act: 'echo' })).pid);
      setInterval(() => {}, 1000);`);
    const pid = Number((await firstLine(owner)).trim());
    expect(alive(pid)).toBe(true);
    await stopChild(owner);
    expect(await gone(pid)).toBe(true);
  });

  it('closing holds its owner until the worker is gone, when nothing else would', async () => {
    // Idle workers do not keep their owner alive; one being closed must, or the owner's event
    // loop ends while close() is still waiting (Node's exit code 13: an await never settled).
    const owner = ownerProcess(`
      for (let i = 0; i < 5; i++) await worker.run({ act: 'echo' });
      await worker.close();
      console.log('closed');`);
    const exit = new Promise((resolve) => owner.once('exit', resolve));
    expect(await firstLine(owner)).toBe('closed\n');
    expect(await exit).toBe(0);
  });
});

/** A process of its own that makes a probe `worker` and runs `body` (an ES module's code). */
function ownerProcess(body: string) {
  const module = JSON.stringify(new URL('./capped-worker.ts', import.meta.url).href);
  const base = JSON.stringify(new URL('../../test/helpers/probe-worker.ts', import.meta.url).href);
  const script = `
    const { CappedWorker } = await import(${module});
    const worker = new CappedWorker({ base: ${base}, name: 'probe-worker', heapMb: 32, stackMb: 2,
      timeoutMs: 600000, residentMb: 1024, settle: (answer) => answer, errors: {} });
    ${body}`;
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return spawnTracked(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], {});
}

/** The first line `child` writes, with its newline. */
function firstLine(child: ReturnType<typeof spawnTracked>): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const end = out.indexOf('\n');
      if (end >= 0) resolve(out.slice(0, end + 1));
    });
    child.once('exit', (code) => {
      reject(new Error(`the process ended (${String(code)}) before writing a line`));
    });
  });
}
