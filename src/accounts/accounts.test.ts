import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeBackends, freshDatabaseUrl } from '../../test/helpers/backends.js';
import { migratedTo } from '../../test/helpers/migrations.js';
import { openAccountDatabase, type AccountDatabase } from './database.js';
import {
  countOrganizations,
  createOrganization,
  findOrganizationByName,
  OrganizationNameTaken,
} from './organizations.js';
import { verifyPassword } from './passwords.js';
import { findTokenOwner, issueToken, listTokens, revokeTokens } from './tokens.js';
import {
  createUser,
  findUserByUsername,
  issueLoginToken,
  updateUser,
  UsernameTaken,
} from './users.js';

describeBackends('account store', (backend) => {
  let url: string;
  let store: AccountDatabase;
  beforeEach(async () => {
    url = await freshDatabaseUrl(backend);
    store = await openAccountDatabase(url);
  });
  afterEach(() => store.close());

  it('migrates once: reopening keeps the data', async () => {
    await createOrganization(store.db, 'Keep me');
    await store.close();
    store = await openAccountDatabase(url);
    expect(await countOrganizations(store.db)).toBe(1);
    expect((await findOrganizationByName(store.db, 'Keep me'))?.name).toBe('Keep me');
  });

  it('migrates a new database once when several openers start at the same moment', async () => {
    const fresh = await freshDatabaseUrl(backend);
    const opened = await Promise.all([1, 2, 3, 4].map(() => openAccountDatabase(fresh)));
    try {
      await createOrganization(opened[0]?.db ?? store.db, 'Shared');
      for (const other of opened) expect(await countOrganizations(other.db)).toBe(1);
    } finally {
      await Promise.all(opened.map((o) => o.close()));
    }
  });

  it('stores only a scrypt hash of the password, and usernames case-insensitively unique', async () => {
    const org = await createOrganization(store.db, 'Org');
    const user = await createUser(store.db, {
      organizationId: org.id,
      username: 'Anna',
      password: 'pa55word!',
      isAdmin: true,
    });
    expect(user.username).toBe('anna');
    expect(user.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(user.password_hash).not.toContain('pa55word!');
    expect(await verifyPassword('pa55word!', user.password_hash)).toBe(true);
    expect(await verifyPassword('pa55word?', user.password_hash)).toBe(false);
    expect((await findUserByUsername(store.db, 'ANNA'))?.id).toBe(user.id);
    await expect(
      createUser(store.db, {
        organizationId: org.id,
        username: 'anna',
        password: 'x'.repeat(8),
        isAdmin: false,
      }),
    ).rejects.toThrow();
  });

  it('tells a taken name from a failure, also when two creations race past the check', async () => {
    // No check before the insert here: the constraint is what refuses the second one.
    const orgs = await Promise.allSettled([
      createOrganization(store.db, 'Twice'),
      createOrganization(store.db, 'Twice'),
    ]);
    expect(orgs.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const lostOrg = orgs.find((o) => o.status === 'rejected');
    expect(lostOrg?.reason).toBeInstanceOf(OrganizationNameTaken);
    const org = await findOrganizationByName(store.db, 'Twice');
    const user = {
      organizationId: org?.id ?? '',
      username: 'same',
      password: 'pa55word!',
      isAdmin: false,
    };
    const users = await Promise.allSettled([
      createUser(store.db, user),
      createUser(store.db, user),
    ]);
    expect(users.filter((u) => u.status === 'fulfilled')).toHaveLength(1);
    const lostUser = users.find((u) => u.status === 'rejected');
    expect(lostUser?.reason).toBeInstanceOf(UsernameTaken);
    expect((lostUser?.reason as Error).message).toBe('username "same" is taken');
  });

  it('keeps organization names unique as people read them: in any case or composition', async () => {
    const acme = await createOrganization(store.db, 'Acme');
    for (const same of ['ACME', ' acme ', 'aCmE']) {
      await expect(createOrganization(store.db, same)).rejects.toBeInstanceOf(
        OrganizationNameTaken,
      );
    }
    expect((await findOrganizationByName(store.db, 'ACME'))?.id).toBe(acme.id);
    // é as one character, and as e with a combining accent.
    await createOrganization(store.db, 'Caf\u00e9');
    await expect(createOrganization(store.db, 'Cafe\u0301')).rejects.toBeInstanceOf(
      OrganizationNameTaken,
    );
    // Raced past any check, the constraint still refuses the second spelling.
    const raced = await Promise.allSettled([
      createOrganization(store.db, 'Race'),
      createOrganization(store.db, 'RACE'),
    ]);
    expect(raced.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(raced.find((r) => r.status === 'rejected')?.reason).toBeInstanceOf(
      OrganizationNameTaken,
    );
    expect(await countOrganizations(store.db)).toBe(3);
  });

  it('gives names that collided before the name keys existed keys of their own', async () => {
    // The database as it was before migration 0009, with two spellings of one name.
    await store.close();
    url = await freshDatabaseUrl(backend);
    const old = await migratedTo(url, '0008_attachment_prints');
    const rows = [
      ['00000000-0000-4000-8000-000000000001', 'Acme', '2026-01-01T00:00:00.000Z'],
      ['00000000-0000-4000-8000-000000000002', 'ACME', '2026-02-01T00:00:00.000Z'],
      ['00000000-0000-4000-8000-000000000003', 'Other', '2026-03-01T00:00:00.000Z'],
    ];
    try {
      for (const [id, name, at] of rows) {
        await sql`insert into organizations (id, name, created_at) values (${id}, ${name}, ${at})`.execute(
          old,
        );
      }
    } finally {
      await old.destroy();
    }
    store = await openAccountDatabase(url);
    // The older keeps the name; the other is still there, under a key no name can take.
    expect((await findOrganizationByName(store.db, 'acme'))?.name).toBe('Acme');
    expect(await countOrganizations(store.db)).toBe(3);
    const keys = await store.db
      .selectFrom('organizations')
      .select(['name', 'name_key'])
      .orderBy('created_at')
      .execute();
    expect(keys).toEqual([
      { name: 'Acme', name_key: 'acme' },
      { name: 'ACME', name_key: 'acme#00000000-0000-4000-8000-000000000002' },
      { name: 'Other', name_key: 'other' },
    ]);
    await expect(createOrganization(store.db, 'OTHER')).rejects.toBeInstanceOf(
      OrganizationNameTaken,
    );
  });

  it('refuses a user in an organization that does not exist', async () => {
    await expect(
      createUser(store.db, {
        organizationId: '00000000-0000-4000-8000-000000000000',
        username: 'orphan',
        password: 'x'.repeat(8),
        isAdmin: false,
      }),
    ).rejects.toThrow();
  });

  it('keeps tokens as hashes and revokes them one by one or per user', async () => {
    const org = await createOrganization(store.db, 'Org');
    const user = await createUser(store.db, {
      organizationId: org.id,
      username: 'bob',
      password: 'x'.repeat(8),
      isAdmin: false,
    });
    const a = await issueToken(store.db, { userId: user.id, kind: 'api', ttlSeconds: null });
    const b = await issueToken(store.db, { userId: user.id, kind: 'login', ttlSeconds: 60 });
    const rows = await listTokens(store.db, user.id);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect([a.secret, b.secret]).not.toContain(row.token_hash);
    }
    expect(a.expiresAt).toBeNull();
    expect(await findTokenOwner(store.db, a.secret)).toMatchObject({
      userId: user.id,
      organizationId: org.id,
      isAdmin: false,
      revokedAt: null,
    });
    expect(await revokeTokens(store.db, { secret: a.secret })).toBe(1);
    expect(await revokeTokens(store.db, { secret: a.secret })).toBe(0);
    expect((await findTokenOwner(store.db, a.secret))?.revokedAt).not.toBeNull();
    expect(await revokeTokens(store.db, { userId: user.id })).toBe(1);
    expect((await findTokenOwner(store.db, b.secret))?.revokedAt).not.toBeNull();
  });

  it('disables a user: tokens revoked, and one issued after (a race) refused as revoked', async () => {
    const org = await createOrganization(store.db, 'Org');
    const user = await createUser(store.db, {
      organizationId: org.id,
      username: 'carl',
      password: 'x'.repeat(8),
      isAdmin: true,
    });
    const before = await issueToken(store.db, { userId: user.id, kind: 'api', ttlSeconds: null });
    const at = new Date('2026-11-25T10:00:00.000Z');
    expect(await updateUser(store.db, user.id, { disabled: true }, at)).toEqual({
      revokedTokens: 1,
    });
    expect((await findUserByUsername(store.db, 'carl'))?.disabled_at).toBe(at.toISOString());
    expect((await findTokenOwner(store.db, before.secret))?.revokedAt).toBe(at.toISOString());
    const after = await issueToken(store.db, {
      userId: user.id,
      kind: 'api',
      ttlSeconds: null,
      now: new Date('2026-11-25T10:00:01.000Z'),
    });
    expect((await findTokenOwner(store.db, after.secret))?.revokedAt).toBe(at.toISOString());
    // Enabled: the token issued while disabled stays dead; new ones work, with the new role.
    await updateUser(store.db, user.id, { disabled: false, isAdmin: false });
    expect((await findTokenOwner(store.db, after.secret))?.revokedAt).toBe(at.toISOString());
    const fresh = await issueToken(store.db, { userId: user.id, kind: 'api', ttlSeconds: null });
    expect(await findTokenOwner(store.db, fresh.secret)).toMatchObject({
      revokedAt: null,
      isAdmin: false,
    });
    // Disabled twice: the first time stays.
    const first = new Date('2026-11-25T12:00:00.000Z');
    await updateUser(store.db, user.id, { disabled: true }, first);
    await updateUser(store.db, user.id, { disabled: true }, new Date('2026-11-25T13:00:00.000Z'));
    expect((await findUserByUsername(store.db, 'carl'))?.disabled_at).toBe(first.toISOString());
  });

  it('issues no login token for a password checked before a password change or a disabling committed', async () => {
    const org = await createOrganization(store.db, 'Org');
    await createUser(store.db, {
      organizationId: org.id,
      username: 'dora',
      password: 'old-password',
      isAdmin: false,
    });
    const now = new Date();
    // The row as a login read it before checking the password (slow), then the change commits.
    const checked = await findUserByUsername(store.db, 'dora');
    if (!checked) throw new Error('no user');
    const token = await issueLoginToken(store.db, checked, 3600, now);
    expect((await findTokenOwner(store.db, token?.secret ?? ''))?.revokedAt).toBeNull();
    await updateUser(store.db, checked.id, { password: 'new-password' });
    expect(await issueLoginToken(store.db, checked, 3600, now)).toBeUndefined();
    // The token issued before the change is revoked by it.
    expect((await findTokenOwner(store.db, token?.secret ?? ''))?.revokedAt).not.toBeNull();

    const current = await findUserByUsername(store.db, 'dora');
    if (!current) throw new Error('no user');
    await updateUser(store.db, current.id, { disabled: true });
    expect(await issueLoginToken(store.db, current, 3600, now)).toBeUndefined();
    await updateUser(store.db, current.id, { disabled: false });
    const again = await findUserByUsername(store.db, 'dora');
    if (!again) throw new Error('no user');
    expect(await issueLoginToken(store.db, again, 3600, now)).toBeDefined();
    const kinds = await store.db
      .selectFrom('tokens')
      .select(['kind', 'revoked_at'])
      .where('user_id', '=', current.id)
      .execute();
    expect(kinds.filter((t) => t.revoked_at === null)).toHaveLength(1);
  });
});
