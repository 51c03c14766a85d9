import { expect, it } from 'vitest';
import { openAccountDatabase } from '../../src/accounts/database.js';
import { createOrganization } from '../../src/accounts/organizations.js';
import { issueToken } from '../../src/accounts/tokens.js';
import { createUser } from '../../src/accounts/users.js';
import { providerTemplates } from '../../src/features/templates/provider-templates.js';
import { describeBackends, freshDatabaseUrl } from '../helpers/backends.js';
import { assertBuilt } from '../helpers/cli.js';
import { referenceDataDir } from '../helpers/market.js';
import { SERVER_TEST_TIMEOUT, startServer } from '../helpers/servers.js';

describeBackends('provider templates on concurrent starts', (backend) => {
  it(
    'several servers starting at once on one account store seed the templates once',
    {
      timeout: SERVER_TEST_TIMEOUT,
    },
    async () => {
      assertBuilt();
      const databaseUrl = await freshDatabaseUrl(backend);
      // Each process has its own market data dir: only the account store is shared.
      const servers = await Promise.all(
        [1, 2, 3].map(() =>
          startServer(['serve'], {
            PROPDATA_DATA_DIR: referenceDataDir(),
            DATABASE_URL: databaseUrl,
          }),
        ),
      );
      const urls = servers.map((s) => s.url);

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
            headers: {
              authorization: `Bearer ${token.secret}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ countryCode: 'CH' }),
          });
          expect(res.status).toBe(200);
          const list = (await res.json()) as { title: string }[];
          expect(list.map((t) => t.title)).toEqual(['Appraisal report', 'Sales brochure']);
        }
      } finally {
        await accounts.close();
      }
    },
  );
});
