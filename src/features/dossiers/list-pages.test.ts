import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { createdId } from '../../../test/helpers/fixtures.js';
import { call, createWorld, type World } from '../../../test/helpers/world.js';
import { EXAMPLE_DOSSIER, type DossierRead } from './schemas.js';
import { dossiersById, pageBatches } from './store.js';

/*
 * A page of dossiers is read in batches of stored bytes and written as the client takes
 * it (dossiers.ts `pageOfDossiers`); what the client gets is the same page as ever.
 */
describeBackends('pages of dossiers', (backend) => {
  let world: World;
  const ids: string[] = [];
  beforeAll(async () => {
    world = await createWorld(backend);
    // Newest last: sizes 2,000 to 9,000 characters of description, in 4-byte characters too.
    for (let i = 0; i < 8; i++) {
      const description = (i % 2 === 0 ? 'x' : '😀').repeat(2000 + i * 1000);
      const res = call(world.app, {
        method: 'POST',
        url: '/api/v1/dossiers',
        token: world.memberA.token,
        payload: {
          ...structuredClone(EXAMPLE_DOSSIER),
          title: `Dossier ${String(i)}`,
          description,
        },
      });
      ids.push(await createdId(res));
    }
  });
  afterAll(() => world.close());

  it('cuts a page into batches of at most the bytes given (UTF-8), at least one dossier each', async () => {
    const viewer = { ...world.memberA, isAdmin: false, tokenId: 'test' };
    const { batches, total } = await pageBatches(
      world.stores.accounts.db,
      viewer,
      { limit: 6, offset: 1 },
      20_000,
    );
    expect(total).toBe(8);
    // Newest first from the second: dossiers 6 … 1, bodies of 8,000 … 3,000 characters (of 4
    // bytes in the odd ones) and a few hundred more each.
    expect(batches.flat()).toEqual([...ids].reverse().slice(1, 7));
    // Greedy: each batch within the budget, and the next one's first dossier would not fit.
    const rows = await world.stores.accounts.db
      .selectFrom('dossiers')
      .select(['id', 'body'])
      .execute();
    const bytes = new Map(rows.map((row) => [row.id, Buffer.byteLength(row.body)]));
    const size = (batch: string[]) => batch.reduce((n, id) => n + (bytes.get(id) ?? NaN), 0);
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.some((batch) => batch.length > 1)).toBe(true);
    batches.forEach((batch, i) => {
      // Within the budget, unless it is one dossier larger than it (one of 7,000 emoji).
      if (batch.length > 1) expect(size(batch)).toBeLessThanOrEqual(20_000);
      const next = batches[i + 1]?.[0];
      if (next) expect(size([...batch, next])).toBeGreaterThan(20_000);
    });
    // A dossier larger than a batch is a batch of its own.
    const tiny = await pageBatches(world.stores.accounts.db, viewer, { limit: 3, offset: 0 }, 10);
    expect(tiny.batches).toEqual([[ids[7]], [ids[6]], [ids[5]]]);
    // A dossier gone before its batch is read is left out; the others keep their order.
    const read = await dossiersById(world.stores.accounts.db, viewer, [
      ids[3] ?? '',
      '00000000-0000-4000-8000-000000000000',
      ids[1] ?? '',
    ]);
    expect(read.map((d) => d.id)).toEqual([ids[3], ids[1]]);
  });

  it('answers the same page as reading each dossier, whatever the page', async () => {
    const token = world.memberA.token;
    for (const query of ['', '?limit=3', '?limit=3&offset=6', '?limit=100&offset=8']) {
      const res = await call(world.app, { method: 'GET', url: `/api/v1/dossiers${query}`, token });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const page = res.json<{
        items: DossierRead[];
        totalItems: number;
        limit: number;
        offset: number;
      }>();
      expect(Object.keys(page)).toEqual(['items', 'totalItems', 'limit', 'offset']);
      expect(page.totalItems).toBe(8);
      for (const item of page.items) {
        const one = await call(world.app, {
          method: 'GET',
          url: `/api/v1/dossiers/${item.id}`,
          token,
        });
        expect(item).toEqual(one.json());
      }
      const limit = Number(/limit=(\d+)/.exec(query)?.[1] ?? 20);
      const offset = Number(/offset=(\d+)/.exec(query)?.[1] ?? 0);
      expect(page.items.map((d) => d.id)).toEqual([...ids].reverse().slice(offset, offset + limit));
      expect([page.limit, page.offset]).toEqual([limit, offset]);
    }
    // Another organization's page is its own, empty.
    const other = await call(world.app, {
      method: 'GET',
      url: '/api/v1/dossiers',
      token: world.memberB.token,
    });
    expect(other.json()).toEqual({ items: [], totalItems: 0, limit: 20, offset: 0 });
  });
});
