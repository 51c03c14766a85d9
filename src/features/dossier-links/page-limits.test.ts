import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { dossierPerOrganization, holdTurn } from '../../../test/helpers/turns.js';
import { fixedValuer } from '../../../test/helpers/valuer.js';
import { call, createWorld, type Member, type World } from '../../../test/helpers/world.js';
import { limits } from '../../limits.js';
import { CostlyWork } from '../../work/costly-work.js';
import { EXAMPLE_DOSSIER } from '../dossiers/schemas.js';
import { TEXT } from './page-text.js';

const { page: PAGE } = limits.dossierLinks;
const MINUTE = 60_000;

describeBackends('the shared page: view limits, cache and the organization’s turn', (backend) => {
  let world: World;
  let clock = new Date('2026-06-15T08:00:00Z');
  const valuer = fixedValuer();
  // No costly work waits: a page whose organization has its turn taken is refused at once.
  const work = new CostlyWork({ waitingPerOrganization: 0 });
  let dossierOf: Record<string, string> = {};
  beforeAll(async () => {
    world = await createWorld(backend, {
      app: { now: () => clock, valueProperty: valuer, costlyWork: work },
    });
    dossierOf = await dossierPerOrganization(world);
  });
  afterAll(() => world.close());

  /** A new link to the organization's dossier: its page path. */
  const link = async (who: Member = world.memberA) => {
    const res = await call(world.app, {
      method: 'POST',
      url: '/api/v1/dossiers/links',
      token: who.token,
      payload: { dossierId: dossierOf[who.organizationId] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return new URL(res.json<{ url: string }>().url).pathname;
  };
  const view = (path: string, address = '10.0.0.1') =>
    call(world.app, { method: 'GET', url: path, remoteAddress: address });
  const valuations = () => valuer.requests.length;
  const expectBusy = (
    res: Awaited<ReturnType<typeof view>>,
    status: number,
    retryAfter: number,
  ) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['retry-after']).toBe(String(retryAfter));
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain(`<h1>${TEXT.en.busyTitle}</h1>`);
    expect(res.body).not.toContain(EXAMPLE_DOSSIER.title);
  };

  it('computes a page once: repeated views make no valuation until the data, the dossier, the day or the time kept change', async () => {
    const path = await link();
    let before = valuations();
    // Views arriving together share one computation: today and the 12 months of the trend.
    const first = await Promise.all([1, 2, 3].map((i) => view(path, `10.1.0.${String(i)}`)));
    for (const res of first) expect(res.statusCode, res.body).toBe(200);
    expect(valuations() - before).toBe(13);
    before = valuations();
    for (let i = 0; i < 5; i += 1) {
      expect((await view(path, '10.1.0.9')).body).toBe(first[0]?.body);
    }
    expect(valuations()).toBe(before);

    // Another living area: the page shows the dossier as it is now.
    const patched = await call(world.app, {
      method: 'PATCH',
      url: `/api/v1/dossiers/${dossierOf[world.memberA.organizationId] ?? ''}`,
      token: world.memberA.token,
      payload: { property: { livingArea: 80 } },
    });
    expect(patched.statusCode).toBe(204);
    const edited = await view(path, '10.1.0.9');
    expect(valuations() - before).toBe(13);
    // 80 m² at 5,000 per m², as the test valuer values it.
    expect(edited.body).toContain('400,000');
    before = valuations();
    const start = clock;
    try {
      // Kept for PAGE.cacheMs: a view just before the end computes nothing, one after it does.
      clock = new Date(start.getTime() + PAGE.cacheMs - 1);
      await view(path, '10.1.0.9');
      expect(valuations()).toBe(before);
      clock = new Date(start.getTime() + PAGE.cacheMs);
      await view(path, '10.1.0.9');
      expect(valuations() - before).toBe(13);
    } finally {
      clock = start;
    }
  });

  it(`refuses a client address beyond ${String(PAGE.viewsPerAddress)} views a minute with a plain 429 page, whatever the link`, async () => {
    const path = await link();
    const address = '10.2.0.1';
    // Unknown secrets count too: they cost a lookup.
    for (let i = 0; i < PAGE.viewsPerAddress / 2; i += 1) {
      expect((await view('/shared/dossier/not-a-secret', address)).statusCode).toBe(404);
    }
    for (let i = 0; i < PAGE.viewsPerAddress / 2; i += 1) {
      expect((await view(path, address)).statusCode).toBe(200);
    }
    // The window started at the first view; the clock has not moved since.
    expectBusy(await view(path, address), 429, 60);
    expectBusy(await view('/shared/dossier/not-a-secret', address), 429, 60);
    expect((await view(path, '10.2.0.2')).statusCode).toBe(200);
    const start = clock;
    try {
      clock = new Date(start.getTime() + MINUTE - 1_500);
      expectBusy(await view(path, address), 429, 2);
      clock = new Date(start.getTime() + MINUTE);
      expect((await view(path, address)).statusCode).toBe(200);
    } finally {
      clock = start;
    }
  });

  it(`refuses a link beyond ${String(PAGE.viewsPerLink)} views a minute, from any address, in its language`, async () => {
    const path = await link();
    for (let i = 0; i < PAGE.viewsPerLink; i += 1) {
      expect((await view(path, `10.3.${String(i >> 8)}.${String(i & 255)}`)).statusCode).toBe(200);
    }
    expectBusy(await view(path, '10.3.9.1'), 429, 60);
    const german = await view(`${path}?lang=de`, '10.3.9.2');
    expect(german.statusCode).toBe(429);
    expect(german.body).toContain(TEXT.de.busyTitle);
    // Another link of the same dossier has its own count.
    expect((await view(await link(), '10.3.9.1')).statusCode).toBe(200);
  });

  it('computes a page in its organization’s turn: a busy organization’s page waits, another’s does not', async () => {
    const shown = await link();
    expect((await view(shown, '10.4.0.1')).statusCode).toBe(200);
    const fresh = await link();
    const release = holdTurn(work.queue, world.memberA.organizationId);
    const before = valuations();
    try {
      expectBusy(await view(fresh, '10.4.0.2'), 429, limits.work.retryAfterSeconds);
      expect(valuations()).toBe(before);
      // A page already computed needs no turn; another organization's gets its own.
      expect((await view(shown, '10.4.0.2')).statusCode).toBe(200);
      expect((await view(await link(world.memberB), '10.4.0.2')).statusCode).toBe(200);
    } finally {
      await release();
    }
    expect((await view(fresh, '10.4.0.2')).statusCode).toBe(200);
    expect(work.queue.size).toEqual({ running: 0, waiting: 0 });
  });
});
