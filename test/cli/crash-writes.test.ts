import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openAccountDatabase } from '../../src/accounts/database.js';
import { EXAMPLE_DOSSIER } from '../../src/features/dossiers/schemas.js';
import { describeBackends } from '../helpers/backends.js';
import { assertBuilt, freshCommandEnv } from '../helpers/cli.js';
import { tokenOfNewAccount } from '../helpers/fixtures.js';
import { coverForm } from '../helpers/multipart.js';
import { makePdf } from '../helpers/pdf.js';
import { SERVER_TEST_TIMEOUT, startServer } from '../helpers/servers.js';

/*
 * The server is killed (SIGKILL) while clients write dossiers and covers, then started again
 * on the same stores: every write it acknowledged is there, whole, and nothing half-written is:
 * no cover without its bytes, no bytes without their cover, the database intact.
 */

describeBackends('a server killed during account writes', (backend) => {
  it(
    'keeps every acknowledged write and nothing half-written',
    {
      timeout: SERVER_TEST_TIMEOUT,
    },
    async () => {
      assertBuilt();
      const env = await freshCommandEnv(backend);
      const first = await startServer(['serve'], env);
      const token = await tokenOfNewAccount(env.DATABASE_URL, 'Crash', true);

      const pdf = await makePdf(2);
      const acknowledged: { kind: 'dossier' | 'cover'; id: string }[] = [];
      // The server is killed once this many dossiers are acknowledged, with more writes in flight:
      // counted, not timed, so that a slow machine kills it mid-writes all the same.
      const DOSSIERS_BEFORE_KILL = 8;
      let enoughWritten: () => void = () => undefined;
      const written = new Promise<void>((resolve) => (enoughWritten = resolve));
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
          if (acknowledged.filter((a) => a.kind === 'dossier').length >= DOSSIERS_BEFORE_KILL) {
            enoughWritten();
          }
        }
      };
      // Writers in flight; the server dies among them. They stop when it has died, also when the
      // test fails before.
      let killed = false;
      first.child.once('exit', () => (killed = true));
      const writers = Array.from({ length: 8 }, async (_, w) => {
        for (let i = w; !killed; i += 8) await write(i);
      });
      await written;
      killed = true;
      first.child.kill('SIGKILL');
      await Promise.all(writers);
      expect(acknowledged.filter((a) => a.kind === 'dossier').length).toBeGreaterThanOrEqual(
        DOSSIERS_BEFORE_KILL,
      );

      // The next start recovers the stores and serves every acknowledged object.
      const second = await startServer(['serve'], env);
      for (const { kind, id } of acknowledged) {
        const url =
          kind === 'dossier'
            ? `${second.url}/api/v1/dossiers/${id}`
            : `${second.url}/api/v1/user-settings/covers/file/${id}`;
        const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status, `${kind} ${id}`).toBe(200);
        if (kind === 'cover') expect(Buffer.from(await res.arrayBuffer())).toEqual(pdf);
      }
      expect(await second.stop()).toBe(0);

      const check = await openAccountDatabase(env.DATABASE_URL);
      try {
        const orphans = await sql<{ n: number }>`
        select (select count(*) from covers c
                 where not exists (select 1 from cover_chunks f where f.cover_id = c.id))
             + (select count(*) from cover_chunks f
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
    },
  );
});
