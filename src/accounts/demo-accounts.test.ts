import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeBackends, freshDatabaseUrl } from '../../test/helpers/backends.js';
import { openAccountDatabase, type AccountDatabase } from './database.js';
import { DEMO_ORGANIZATION, seedDemoAccounts } from './demo-accounts.js';
import { createOrganization } from './organizations.js';
import { listUsers } from './users.js';

describeBackends('demo accounts', (backend) => {
  let store: AccountDatabase;
  beforeEach(async () => {
    store = await openAccountDatabase(await freshDatabaseUrl(backend));
  });
  afterEach(() => store.close());

  it('are made once, on a brand-new store', async () => {
    const made = await seedDemoAccounts(store.db);
    expect(made?.map((a) => [a.username, a.isAdmin])).toEqual([
      ['demo-admin', true],
      ['demo-user', false],
    ]);
    expect(await seedDemoAccounts(store.db)).toBeNull();
    expect(await listUsers(store.db)).toHaveLength(2);
  });

  it('are made once of several starts at the same moment', async () => {
    const made = await Promise.all([1, 2, 3].map(() => seedDemoAccounts(store.db)));
    expect(made.filter((accounts) => accounts !== null)).toHaveLength(1);
    expect((await listUsers(store.db)).map((u) => u.username)).toEqual(['demo-admin', 'demo-user']);
  });

  it('are given to the demo organization a first start left without users, and only to it', async () => {
    // A first start stopped after the organization, before its users.
    await createOrganization(store.db, DEMO_ORGANIZATION);
    expect((await seedDemoAccounts(store.db))?.length).toBe(2);
    expect(await listUsers(store.db)).toHaveLength(2);
  });

  it('are not made where the store has other organizations', async () => {
    await createOrganization(store.db, DEMO_ORGANIZATION);
    await createOrganization(store.db, 'Acme');
    expect(await seedDemoAccounts(store.db)).toBeNull();
    expect(await listUsers(store.db)).toHaveLength(0);
  });
});
