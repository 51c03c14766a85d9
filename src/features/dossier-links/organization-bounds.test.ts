import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { createDossier } from '../../../test/helpers/fixtures.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { call, createWorld, type Member, type World } from '../../../test/helpers/world.js';
import type { DossierLinkRow } from '../../accounts/tables.js';
import { limits } from '../../limits.js';

const BASE = '/api/v1/dossiers/links';
const NOW = new Date('2026-06-15T08:00:00Z');

/*
 * An organization's links stay bounded however many dossiers it has: at most
 * `openPerOrganization` open ones, and `perOrganization` in all (its oldest closed ones go). The
 * links are put in the store directly, as many as years of sharing would make.
 */
describeBackends('sharing links of a whole organization', (backend) => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld(backend, { app: { now: () => NOW } });
  });
  afterAll(() => world.close());

  const share = (dossierId: string, who: Member) =>
    call(world.app, { method: 'POST', url: BASE, token: who.token, payload: { dossierId } });

  /** `count` links of `who`'s organization on `dossierId`, a second apart, oldest first. */
  async function stored(who: Member, dossierId: string, count: number, revoked: boolean) {
    const rows: DossierLinkRow[] = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      organization_id: who.organizationId,
      dossier_id: dossierId,
      creator_id: who.userId,
      token_hash: randomUUID(),
      locale: 'en',
      created_at: new Date(NOW.getTime() - (count - i) * 1000).toISOString(),
      expires_at: new Date(NOW.getTime() + 86_400_000).toISOString(),
      revoked_at: revoked ? NOW.toISOString() : null,
    }));
    const db = world.stores.accounts.db;
    for (let at = 0; at < rows.length; at += 1000) {
      await db
        .insertInto('dossier_links')
        .values(rows.slice(at, at + 1000))
        .execute();
    }
    return rows.map((row) => row.id);
  }

  const rowsOf = (who: Member) =>
    world.stores.accounts.db
      .selectFrom('dossier_links')
      .select(['id', 'revoked_at'])
      .where('organization_id', '=', who.organizationId)
      .execute();

  it('refuses an open link beyond the organization’s bound, on any dossier, until one closes', async () => {
    const { openPerOrganization } = limits.dossierLinks;
    const [full, other] = [await createDossier(world), await createDossier(world)];
    const ids = await stored(world.memberA, full, openPerOrganization, false);
    const refused = expectProblem(await share(other, world.memberA), 409, 'conflict');
    expect(refused.detail).toBe(
      `An organization may have at most ${String(openPerOrganization)} open links; revoke some first`,
    );
    // Another organization is not held by it.
    const elsewhere = await createDossier(world, world.memberB);
    expect((await share(elsewhere, world.memberB)).statusCode).toBe(201);
    const revoked = await call(world.app, {
      method: 'DELETE',
      url: `${BASE}/${String(ids[0])}`,
      token: world.memberA.token,
    });
    expect(revoked.statusCode).toBe(204);
    expect((await share(other, world.memberA)).statusCode).toBe(201);
    expect((await rowsOf(world.memberA)).length).toBe(openPerOrganization + 1);
  });

  it('makes room for a link past the organization’s bound by deleting its oldest closed ones', async () => {
    const { perOrganization } = limits.dossierLinks;
    const dossiers = [
      await createDossier(world, world.memberB),
      await createDossier(world, world.memberB),
    ];
    const before = (await rowsOf(world.memberB)).length;
    // Ten more than the bound, all closed but those made before.
    const closed = await stored(
      world.memberB,
      dossiers[0] ?? '',
      perOrganization - before + 10,
      true,
    );
    expect((await share(dossiers[1] ?? '', world.memberB)).statusCode).toBe(201);
    const left = new Set((await rowsOf(world.memberB)).map((row) => row.id));
    // The eleven oldest closed ones went (room for the new one); the others stay.
    expect(closed.slice(0, 11).some((id) => left.has(id))).toBe(false);
    expect(closed.slice(11).every((id) => left.has(id))).toBe(true);
    expect(left.size).toBe(perOrganization);
    // The list pages through them from the index, newest first.
    const last = await call(world.app, {
      method: 'GET',
      url: `${BASE}?limit=2&offset=${String(left.size - 2)}`,
      token: world.memberB.token,
    });
    expect(last.json()).toMatchObject({ totalItems: left.size });
    expect(last.json<{ items: { id: string }[] }>().items.map((item) => item.id)).toEqual([
      closed[12],
      closed[11],
    ]);
    // With room (one deleted), a creation deletes nothing.
    await world.stores.accounts.db
      .deleteFrom('dossier_links')
      .where('id', '=', closed[30] ?? '')
      .execute();
    expect((await share(dossiers[1] ?? '', world.memberB)).statusCode).toBe(201);
    const after = new Set((await rowsOf(world.memberB)).map((row) => row.id));
    expect(after.size).toBe(perOrganization);
    expect(after.has(closed[11] ?? '')).toBe(true);
  });
});
