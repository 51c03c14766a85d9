import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashToken } from '../../accounts/secrets.js';
import { describeBackends } from '../../../test/helpers/backends.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { fixedValuer } from '../../../test/helpers/valuer.js';
import { call, createWorld, type Member, type World } from '../../../test/helpers/world.js';
import { createDossier } from '../../../test/helpers/fixtures.js';
import { limits } from '../../limits.js';

const BASE = '/api/v1/dossiers/links';
const DAY = 86_400_000;

describeBackends('dossier sharing links', (backend) => {
  let world: World;
  let clock = new Date('2026-06-15T08:00:00Z');
  let dossierId: string;
  beforeAll(async () => {
    world = await createWorld(backend, {
      env: { PROPDATA_PUBLIC_BASE_URL: 'https://share.example.test/propdata/' },
      app: { now: () => clock, valueProperty: fixedValuer() },
    });
    dossierId = await createDossier(world);
  });
  afterAll(() => world.close());

  const share = (payload: object, who: Member = world.memberA) =>
    call(world.app, { method: 'POST', url: BASE, token: who.token, payload });
  const page = (url: string) =>
    call(world.app, { method: 'GET', url: new URL(url).pathname.replace('/propdata', '') });

  it('makes a link on the public base URL whose page opens without a token, in its language', async () => {
    const res = await share({ dossierId, daysToLive: 2, countryCode: 'AT', locale: 'de_AT' });
    expect(res.statusCode, res.body).toBe(201);
    const { id, url, expiresAt } = res.json<{ id: string; url: string; expiresAt: string }>();
    expect(url).toMatch(/^https:\/\/share\.example\.test\/propdata\/shared\/dossier\/[\w-]{43}$/);
    expect(expiresAt).toBe(new Date(clock.getTime() + 2 * DAY).toISOString());
    // Only the hash of the secret is stored.
    const secret = url.split('/').at(-1) ?? '';
    const rows = await world.stores.accounts.db.selectFrom('dossier_links').selectAll().execute();
    const row = rows.find((r) => r.id === id);
    expect(row?.token_hash).toBe(hashToken(secret));
    expect(JSON.stringify(rows)).not.toContain(secret);

    const opened = await page(url);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(opened.headers['content-security-policy']).toContain("default-src 'none'");
    expect(opened.headers['referrer-policy']).toBe('no-referrer');
    expect(opened.body).toContain('<html lang="de">');
    expect(opened.body).toContain('Flat in the first district');
    expect(opened.body).toContain('Geschätzter Kaufpreis');
    // The trend runs from the first of the month a year back to today, the estimate shown.
    const line = /<polyline points="([^"]+)"/.exec(opened.body)?.[1]?.split(' ') ?? [];
    expect(line).toHaveLength(13);
    expect(opened.body).toContain('>2025-07</text>');
    expect(opened.body).toContain('>2026-06-15</text>');
    expect(opened.body).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  });

  it('writes a page of a language it has no words for in English, with English digits and dates', async () => {
    for (const locale of ['fa-IR', 'ar-EG']) {
      const res = await share({ dossierId, daysToLive: 2, locale });
      expect(res.statusCode, res.body).toBe(201);
      const opened = await page(res.json<{ url: string }>().url);
      expect(opened.statusCode).toBe(200);
      expect(opened.body).toContain('<html lang="en">');
      // Neither Eastern Arabic nor Persian digits, nor a month of the Solar Hijri calendar.
      expect(opened.body, locale).not.toMatch(/[\u0660-\u0669\u06F0-\u06F9]|آذر/);
      expect(opened.body).toMatch(/\d{1,2} [A-Z][a-z]+ \d{4}|[A-Z][a-z]+ \d{1,2}, \d{4}/);
    }
  });

  it('lists the links, and a revoked or expired link is a plain 404 page', async () => {
    const a = (await share({ dossierId, daysToLive: 1 })).json<{ id: string; url: string }>();
    const b = (await share({ dossierId, daysToLive: 3, locale: 'fr' })).json<{ url: string }>();
    expect((await page(b.url)).body).toContain('Prix de vente estimé');
    // The Ruby client appends `?lang=` to every link.
    const italian = await call(world.app, {
      method: 'GET',
      url: `${new URL(b.url).pathname.replace('/propdata', '')}?lang=it`,
    });
    expect(italian.body).toContain('Prezzo di vendita stimato');
    // What mail and chat programs do to links is never an error document: tracking parameters
    // are ignored, a doubled lang takes its first, one that is no language the link's.
    const pagePath = new URL(b.url).pathname.replace('/propdata', '');
    for (const [query, words] of [
      ['?lang=de&lang=fr&utm_source=newsletter&fbclid=x1', 'Geschätzter Kaufpreis'],
      ['?lang=english', 'Prix de vente estimé'],
      ['?lang=', 'Prix de vente estimé'],
      ['?lang=%00&fbclid=%00', 'Prix de vente estimé'],
    ] as const) {
      const opened = await call(world.app, { method: 'GET', url: `${pagePath}${query}` });
      expect(opened.statusCode, query).toBe(200);
      expect(opened.body, query).toContain(words);
    }
    const broken = await call(world.app, { method: 'GET', url: `${pagePath}%00` });
    expect(broken.statusCode).toBe(404);
    expect(broken.headers['content-type']).toBe('text/html; charset=utf-8');
    // Links mangled beyond what the router takes (longer than a path parameter may be, broken
    // percent-encoding) are no link either: the page's 404, not an error document.
    // A path under the page's that no route takes (a secret with more after it) neither.
    for (const mangled of [
      `${pagePath}${'x'.repeat(200)}`,
      `${pagePath}%E0%A4%A`,
      `${pagePath}/pdf`,
      '/shared/elsewhere',
    ]) {
      const opened = await call(world.app, { method: 'GET', url: mangled });
      expect(opened.statusCode, mangled).toBe(404);
      expect(opened.headers['content-type'], mangled).toBe('text/html; charset=utf-8');
      expect(opened.body, mangled).toContain('Page not found');
    }
    // Another method on a page's path is still a 405 that names the one allowed.
    const posted = await call(world.app, { method: 'POST', url: pagePath });
    expect(posted.statusCode).toBe(405);
    expect(posted.headers.allow).toContain('GET');
    const revoked = await call(world.app, {
      method: 'DELETE',
      url: `${BASE}/${a.id}`,
      token: world.memberA.token,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(revoked.statusCode).toBe(204);
    const gone = await page(a.url);
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(gone.body).toContain('Page not found');
    expect(gone.body).not.toContain('Flat in the first district');
    const list = await call(world.app, {
      method: 'GET',
      url: `${BASE}?dossierId=${dossierId}`,
      token: world.adminA.token,
    });
    const items = list.json<{
      items: { id: string; isActive: boolean; revokedAt: string | null }[];
    }>().items;
    expect(items.find((l) => l.id === a.id)).toMatchObject({ isActive: false });
    expect(items.find((l) => l.id === a.id)?.revokedAt).toBe(clock.toISOString());
    const before = clock;
    clock = new Date(before.getTime() + 3 * DAY + 1);
    try {
      expect((await page(b.url)).statusCode).toBe(404);
    } finally {
      clock = before;
    }
    expect((await page('https://x.test/shared/dossier/not-a-secret')).statusCode).toBe(404);
  });

  it('refuses out-of-range lifetimes, another country, and another organization’s dossier', async () => {
    for (const daysToLive of [0, 366, 1.5]) {
      const problem = expectProblem(
        await share({ dossierId, daysToLive }),
        400,
        'validation_failed',
      );
      expect(problem.errors?.[0]?.path).toBe('/daysToLive');
    }
    const country = expectProblem(
      await share({ dossierId, countryCode: 'DE' }),
      400,
      'validation_failed',
    );
    expect(country.errors?.[0]?.path).toBe('/countryCode');
    expectProblem(await share({ dossierId }, world.memberB), 404, 'not_found');
    const foreignList = await call(world.app, {
      method: 'GET',
      url: BASE,
      token: world.adminB.token,
    });
    expect(foreignList.json()).toEqual({ items: [], totalItems: 0, limit: 100, offset: 0 });
  });

  it(`keeps at most ${String(limits.dossierLinks.perDossier)} links of a dossier, also when asked at once`, async () => {
    const id = await createDossier(world);
    const max = limits.dossierLinks.perDossier;
    for (let i = 0; i < max - 3; i++) expect((await share({ dossierId: id })).statusCode).toBe(201);
    const answers = await Promise.all(Array.from({ length: 8 }, () => share({ dossierId: id })));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    const listed = await call(world.app, {
      method: 'GET',
      url: `${BASE}?dossierId=${id}`,
      token: world.memberA.token,
    });
    expect(listed.json<{ items: unknown[] }>().items).toHaveLength(max);

    // Revoked and expired links stay listed but no longer count against the cap.
    const items = listed.json<{ items: { id: string }[] }>().items;
    const revoked = await call(world.app, {
      method: 'DELETE',
      url: `${BASE}/${items[0]?.id ?? ''}`,
      token: world.memberA.token,
    });
    expect(revoked.statusCode).toBe(204);
    expect((await share({ dossierId: id })).statusCode).toBe(201);
    expectProblem(await share({ dossierId: id }), 409, 'conflict');
    const saved = clock;
    try {
      clock = new Date(saved.getTime() + 31 * DAY); // past the default 30 days of every link
      expect((await share({ dossierId: id, daysToLive: 1 })).statusCode).toBe(201);
    } finally {
      clock = saved;
    }
    const all = await call(world.app, {
      method: 'GET',
      url: `${BASE}?dossierId=${id}&limit=100&offset=100`,
      token: world.memberA.token,
    });
    // The 101 links before it are all closed now: creating the last one kept the newest 100
    // of them (a dossier keeps at most that many closed links), and it is open.
    const closedKept = limits.dossierLinks.closedPerDossier;
    expect(all.json()).toMatchObject({ totalItems: closedKept + 1, limit: 100, offset: 100 });
    expect(all.json<{ items: unknown[] }>().items).toHaveLength(closedKept + 1 - 100);
  });

  it(`keeps the newest ${String(limits.dossierLinks.closedPerDossier)} closed links of a dossier however many were made`, async () => {
    const id = await createDossier(world);
    const made: string[] = [];
    const saved = clock;
    try {
      for (let i = 0; i < limits.dossierLinks.closedPerDossier + 5; i++) {
        // A second apart: "newest" is by creation time.
        clock = new Date(saved.getTime() + i * 1000);
        const created = await share({ dossierId: id });
        expect(created.statusCode).toBe(201);
        const linkId = created.json<{ id: string }>().id;
        made.push(linkId);
        const revoked = await call(world.app, {
          method: 'DELETE',
          url: `${BASE}/${linkId}`,
          token: world.memberA.token,
        });
        expect(revoked.statusCode).toBe(204);
      }
    } finally {
      clock = saved;
    }
    const rows = await world.stores.accounts.db
      .selectFrom('dossier_links')
      .select('id')
      .where('dossier_id', '=', id)
      .execute();
    // Each creation prunes before it inserts: the newest 100 closed and the last one made.
    const kept = made.slice(-(limits.dossierLinks.closedPerDossier + 1));
    expect(rows.map((r) => r.id).sort()).toEqual([...kept].sort());
  });

  it('pages the organization’s links, newest first, without gaps or overlaps', async () => {
    const id = await createDossier(world);
    for (let i = 0; i < 5; i++) expect((await share({ dossierId: id })).statusCode).toBe(201);
    const list = (query: string) =>
      call(world.app, { method: 'GET', url: `${BASE}?${query}`, token: world.memberA.token });
    const whole = (await list(`dossierId=${id}`)).json<{ items: { id: string }[] }>().items;
    const pages = [];
    for (const offset of [0, 2, 4]) {
      const res = await list(`dossierId=${id}&limit=2&offset=${String(offset)}`);
      expect(res.json()).toMatchObject({ totalItems: 5, limit: 2, offset });
      pages.push(...res.json<{ items: { id: string }[] }>().items.map((l) => l.id));
    }
    expect(pages).toEqual(whole.map((l) => l.id));
    expectProblem(await list('limit=101'), 400, 'validation_failed');
    expectProblem(await list('limit=0'), 400, 'validation_failed');
    expectProblem(await list('offset=-1'), 400, 'validation_failed');
  });

  it('answers a link asked while its dossier is deleted with 201 or 404, never an error', async () => {
    for (let round = 0; round < 6; round++) {
      const id = await createDossier(world);
      const [shared, deleted] = await Promise.all([
        share({ dossierId: id }),
        call(world.app, {
          method: 'DELETE',
          url: `/api/v1/dossiers/${id}`,
          token: world.memberA.token,
        }),
      ]);
      expect([201, 404]).toContain(shared.statusCode);
      expect(deleted.statusCode).toBe(204);
      // Whichever came first, nothing of the dossier is left.
      const rows = await world.stores.accounts.db
        .selectFrom('dossier_links')
        .select('id')
        .where('dossier_id', '=', id)
        .execute();
      expect(rows).toEqual([]);
    }
  });

  it('a link goes with its dossier', async () => {
    const id = await createDossier(world);
    const { url } = (await share({ dossierId: id })).json<{ url: string }>();
    expect((await page(url)).statusCode).toBe(200);
    await call(world.app, {
      method: 'DELETE',
      url: `/api/v1/dossiers/${id}`,
      token: world.memberA.token,
    });
    expect((await page(url)).statusCode).toBe(404);
  });
});
