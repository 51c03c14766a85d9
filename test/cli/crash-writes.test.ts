import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openAccountDatabase } from '../../src/accounts/database.js';
import { createOrganization } from '../../src/accounts/organizations.js';
import { issueToken } from '../../src/accounts/tokens.js';
import { createUser } from '../../src/accounts/users.js';
import { EXAMPLE_DOSSIER } from '../../src/features/dossiers/schemas.js';
import { describeBackends, freshDatabaseUrl, tempDir } from '../helpers/backends.js';
import { assertBuilt, BIN } from '../helpers/cli.js';
import { coverForm } from '../helpers/multipart.js';
import { makePdf } from '../helpers/pdf.js';

/*
 * The server is killed (SIGKILL) while clients write dossiers and covers, then started again
 * on the same stores: every write it acknowledged is there, whole, and nothing half-written is:
 * no cover without its bytes, no bytes without their cover, the database intact.
 */

let running: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running = [];
});

function serve(
  env: Record<string, string>,
): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
  });
  running.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listen line in: ${output}`)), 60_000);
    const collect = (d: Buffer) => {
      output += d.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${String(code)}: ${output}`));
    });
  });
}

describeBackends('a server killed during account writes', (backend) => {
  it('keeps every acknowledged write and nothing half-written', { timeout: 120_000 }, async () => {
    assertBuilt();
    const env = { PROPDATA_DATA_DIR: tempDir(), DATABASE_URL: await freshDatabaseUrl(backend) };
    const first = await serve(env);
    const accounts = await openAccountDatabase(env.DATABASE_URL);
    const org = await createOrganization(accounts.db, 'Crash');
    const user = await createUser(accounts.db, {
      organizationId: org.id,
      username: 'crash',
      password: 'long enough password',
      isAdmin: true,
    });
    const token = (await issueToken(accounts.db, { userId: user.id, kind: 'api', ttlSeconds: 600 }))
      .secret;
    await accounts.close();

    const pdf = await makePdf(2);
    const acknowledged: { kind: 'dossier' | 'cover'; id: string }[] = [];
    const write = async (i: number) => {
      const cover = i % 3 === 0;
      const form = coverForm(pdf, `cover-${String(i)}.pdf`);
      const url = cover
        ? `${first.url}/api/v1/user-settings/covers/user/front`
        : `${first.url}/api/v1/dossiers`;
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          ...(cover ? form.headers : { 'content-type': 'application/json' }),
        },
        body: cover ? form.payload : JSON.stringify(EXAMPLE_DOSSIER),
      }).catch(() => undefined);
      if (res?.status === 201) {
        const body = (await res.json()) as { id?: string; uuid?: string };
        acknowledged.push({ kind: cover ? 'cover' : 'dossier', id: body.id ?? body.uuid ?? '' });
      }
    };
    // Writers in flight; the server dies among them.
    let killed = false;
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = w; !killed; i += 8) await write(i);
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    killed = true;
    first.child.kill('SIGKILL');
    await Promise.all(writers);
    expect(acknowledged.filter((a) => a.kind === 'dossier').length).toBeGreaterThan(0);

    // The next start recovers the stores and serves every acknowledged object.
    const second = await serve(env);
    for (const { kind, id } of acknowledged) {
      const url =
        kind === 'dossier'
          ? `${second.url}/api/v1/dossiers/${id}`
          : `${second.url}/api/v1/user-settings/covers/file/${id}`;
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, `${kind} ${id}`).toBe(200);
      if (kind === 'cover') expect(Buffer.from(await res.arrayBuffer())).toEqual(pdf);
    }
    second.child.kill('SIGTERM');

    const check = await openAccountDatabase(env.DATABASE_URL);
    try {
      const orphans = await sql<{ n: number }>`
        select (select count(*) from covers c
                 where not exists (select 1 from cover_files f where f.cover_id = c.id))
             + (select count(*) from cover_files f
                 where not exists (select 1 from covers c where c.id = f.cover_id)) as n`.execute(
        check.db,
      );
      expect(Number(orphans.rows[0]?.n)).toBe(0);
      const covers = await check.db.selectFrom('covers').select('id').execute();
      expect(covers.length).toBeLessThanOrEqual(10); // the per-owner limit held
      if (backend === 'sqlite') {
        const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(
          check.db,
        );
        expect(integrity.rows[0]?.integrity_check).toBe('ok');
        const broken = await sql`pragma foreign_key_check`.execute(check.db);
        expect(broken.rows).toEqual([]);
      }
      for (const row of await check.db.selectFrom('dossiers').select('body').execute()) {
        expect(() => JSON.parse(row.body) as unknown).not.toThrow();
      }
    } finally {
      await check.close();
    }
  });
});
