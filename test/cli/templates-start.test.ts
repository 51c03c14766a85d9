import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { openAccountDatabase } from '../../src/accounts/database.js';
import { createOrganization } from '../../src/accounts/organizations.js';
import { issueToken } from '../../src/accounts/tokens.js';
import { createUser } from '../../src/accounts/users.js';
import { providerTemplates } from '../../src/features/templates/provider-templates.js';
import { describeBackends, freshDatabaseUrl, tempDir } from '../helpers/backends.js';
import { assertBuilt, BIN } from '../helpers/cli.js';

interface Server {
  child: ChildProcessWithoutNullStreams;
  baseUrl: Promise<string>;
}

/** Starts `propdata serve` on a free port; `baseUrl` settles when it listens or exits. */
function serve(env: Record<string, string>): Server {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
  });
  let output = '';
  const baseUrl = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listen line in: ${output}`)), 60_000);
    const collect = (d: Buffer) => {
      output += d.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${output}`));
    });
  });
  return { child, baseUrl };
}

let running: Server[] = [];
afterEach(() => {
  for (const server of running) server.child.kill('SIGKILL');
  running = [];
});

describeBackends('provider templates on concurrent starts', (backend) => {
  it('several servers starting at once on one account store seed the templates once', async () => {
    assertBuilt();
    const databaseUrl = await freshDatabaseUrl(backend);
    // Each process has its own market data dir: only the account store is shared.
    running = [1, 2, 3].map(() =>
      serve({ PROPDATA_DATA_DIR: tempDir(), DATABASE_URL: databaseUrl }),
    );
    const urls = await Promise.all(running.map((s) => s.baseUrl));

    const accounts = await openAccountDatabase(databaseUrl);
    try {
      const db = accounts.db;
      const ids = await db
        .selectFrom('templates')
        .select('id')
        .where('level', '=', 'provider')
        .orderBy('id')
        .execute();
      expect(ids.map((r) => r.id)).toEqual(
        providerTemplates()
          .map((t) => t.id)
          .sort(),
      );

      const org = await createOrganization(db, 'Concurrent');
      const user = await createUser(db, {
        organizationId: org.id,
        username: 'concurrent',
        password: 'long enough password',
        isAdmin: false,
      });
      const token = await issueToken(db, { userId: user.id, kind: 'api', ttlSeconds: 600 });
      for (const url of urls) {
        const res = await fetch(`${url}/api/v1/user-settings/templates/list`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token.secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ countryCode: 'CH' }),
        });
        expect(res.status).toBe(200);
        const list = (await res.json()) as { title: string }[];
        expect(list.map((t) => t.title)).toEqual(['Appraisal report', 'Sales brochure']);
      }
    } finally {
      await accounts.close();
    }
  });
});
