import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { describeBackends, freshDatabaseUrl, tempDir } from '../helpers/backends.js';
import { assertBuilt, BIN } from '../helpers/cli.js';

interface Running {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  baseUrl: string;
}

/** Starts `propdata serve --demo` on a free port and waits until it listens. */
async function serve(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [BIN, 'serve', '--demo'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listen line in: ${output}`)), 20_000);
    const check = () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      // The banner comes after the listen line on a first start; give it a moment to arrive.
      if (match?.[1]) {
        clearTimeout(timer);
        setTimeout(() => resolve(match[1] ?? ''), 300);
      }
    };
    child.stdout.on('data', check);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { child, output: () => output, baseUrl };
}

function stop(running: Running): Promise<number | null> {
  return new Promise((resolve) => {
    running.child.on('exit', (code) => resolve(code));
    running.child.kill('SIGTERM');
  });
}

let current: Running | undefined;
afterEach(() => {
  current?.child.kill('SIGKILL');
  current = undefined;
});

describeBackends('first start', (backend) => {
  it('prints demo accounts with working tokens once, and shuts down cleanly on SIGTERM', async () => {
    assertBuilt();
    const env = { PROPDATA_DATA_DIR: tempDir(), DATABASE_URL: await freshDatabaseUrl(backend) };

    current = await serve(env);
    const banner = current.output();
    expect(banner).toMatch(/First start: created demo accounts/);
    const admin = /admin {2}username (\S+) {2}password (\S+)\s+token (pd_\S+)/.exec(banner);
    const user = /user {3}username (\S+) {2}password (\S+)\s+token (pd_\S+)/.exec(banner);
    expect(admin?.[1]).toBe('demo-admin');
    expect(user?.[1]).toBe('demo-user');
    expect(banner).toMatch(/curl -s -H 'Authorization: Bearer pd_/);

    const me = await fetch(`${current.baseUrl}/api/v1/me`, {
      headers: { authorization: `Bearer ${admin?.[3] ?? ''}` },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      username: 'demo-admin',
      isAdmin: true,
      organizationName: 'Demo Realty',
    });

    const login = await fetch(`${current.baseUrl}/auth/login/credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user?.[1], password: user?.[2] }),
    });
    expect(login.status).toBe(200);
    // The log of the requests that follow the banner holds neither the password nor the token.
    const log = current.output().slice(banner.length);
    expect(log).toMatch(/auth\/login\/credentials/);
    expect(log).not.toContain(user?.[2] ?? 'unreachable');
    expect(log).not.toContain(admin?.[3] ?? 'unreachable');

    expect(await stop(current)).toBe(0);
    expect(current.output()).toMatch(/shutting down/);

    current = await serve(env);
    expect(current.output()).not.toMatch(/First start|demo-admin|pd_/);
    expect(await stop(current)).toBe(0);
  });
});
