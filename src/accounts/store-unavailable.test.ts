import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { createDossier } from '../../test/helpers/fixtures.js';
import { fixedValuer } from '../../test/helpers/valuer.js';
import {
  call,
  createWorld,
  loggingInto,
  testConfig,
  type World,
} from '../../test/helpers/world.js';
import { buildApp } from '../app.js';
import { openStores } from '../stores.js';
import { postgresConnectionRoom } from './database.js';
import { limits } from '../limits.js';
import { EXAMPLE_DOSSIER } from '../features/dossiers/schemas.js';
import { accountStoreUnavailable } from './store-unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('an account database that cannot serve now', () => {
  it('is told from a wrong request or a fault by its condition', () => {
    expect(accountStoreUnavailable(withCode('53300'))).toBe(true); // too many connections
    expect(accountStoreUnavailable(withCode('57P03'))).toBe(true); // starting up
    expect(accountStoreUnavailable(withCode('55P03'))).toBe(true); // a lock held too long
    const connectRefused = Object.assign(withCode('ECONNREFUSED'), { syscall: 'connect' });
    expect(accountStoreUnavailable(connectRefused)).toBe(true);
    expect(accountStoreUnavailable(withCode('SQLITE_BUSY'))).toBe(true);
    expect(accountStoreUnavailable(withCode('SQLITE_BUSY_SNAPSHOT'))).toBe(true);
    expect(accountStoreUnavailable(withCode('SQLITE_FULL'))).toBe(true); // the disk is full
    expect(accountStoreUnavailable(withCode('53100'))).toBe(true); // PostgreSQL's disk is full
    expect(accountStoreUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    // Wrapped once, as a driver's error may be.
    expect(accountStoreUnavailable(new Error('query failed', { cause: withCode('53300') }))).toBe(
      true,
    );
    // A constraint, a syntax error, a bug: not the database being away.
    expect(accountStoreUnavailable(withCode('23505'))).toBe(false);
    expect(accountStoreUnavailable(withCode('42601'))).toBe(false);
    expect(accountStoreUnavailable(withCode('SQLITE_CONSTRAINT_UNIQUE'))).toBe(false);
    expect(accountStoreUnavailable(withCode('SQLITE_LOCKED'))).toBe(false);
    // A client that aborted its request: its socket's reset is not the database's.
    expect(accountStoreUnavailable(withCode('ECONNRESET', 'aborted'))).toBe(false);
    expect(accountStoreUnavailable(withCode('ECONNREFUSED'))).toBe(false);
    expect(accountStoreUnavailable(new TypeError('undefined is not a function'))).toBe(false);
    expect(accountStoreUnavailable('53300')).toBe(false);
  });
});

describe('a full SQLite file', () => {
  it('answers a write 503 with Retry-After naming the full disk in the log, stores nothing, and takes writes again once there is room', async () => {
    const logged: string[] = [];
    const world = await createWorld('sqlite', loggingInto(logged));
    onTestFinished(() => world.close());
    const { db } = world.stores.accounts;
    // The file may grow by no page: as a disk without room (SQLite rolls the transaction back).
    const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0];
    await sql.raw(`pragma max_page_count = ${String(pages?.page_count)}`).execute(db);
    const create = () =>
      call(world.app, {
        method: 'POST',
        url: '/api/v1/dossiers',
        token: world.memberA.token,
        payload: { ...EXAMPLE_DOSSIER, title: 'x'.repeat(100), description: 'y'.repeat(10_000) },
      });
    const refused = await create();
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(limits.accountStore.retryAfterSeconds));
    expect(logged.join('\n')).toContain('database or disk is full');
    expect(logged.join('\n')).not.toContain('cannot rollback');
    const count = async () =>
      (
        await db
          .selectFrom('dossiers')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst()
      )?.n;
    expect(await count()).toBe(0);
    await sql.raw('pragma max_page_count = 1073741823').execute(db);
    expect((await create()).statusCode).toBe(201);
    expect(await count()).toBe(1);
  });
});

/**
 * A maintenance session holding organization A's row, which creating a dossier locks
 * (owner-lock.ts), until it ends its transaction (`rollback`); closed after the test.
 */
async function holdingRowOfA(world: World): Promise<pg.Client> {
  const outside = new pg.Client({ connectionString: world.config.databaseUrl });
  await outside.connect();
  onTestFinished(() => outside.end());
  await outside.query('begin');
  await outside.query('select id from organizations where id = $1 for update', [
    world.memberA.organizationId,
  ]);
  return outside;
}

// PostgreSQL only (SQLite opens no connections); skipped, and said so, only where the tests'
// cluster could not be started outside CI, as every PostgreSQL suite.
describe.skipIf(inject('postgresUrl') === '')(
  'requests when PostgreSQL refuses connections',
  () => {
    const backend = 'postgres';

    it('are answered 503 with Retry-After, never 500, and the service goes on', async () => {
      const world = await createWorld(backend);
      onTestFinished(() => world.close());
      // A role that may open 2 connections, for an app whose pool would open 6.
      const role = `limited_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: world.config.databaseUrl });
      await admin.connect();
      try {
        await admin.query(`create role ${role} login connection limit 2`);
        await admin.query(`grant all on all tables in schema public to ${role}`);
      } finally {
        await admin.end();
      }
      const url = new URL(world.config.databaseUrl);
      url.username = role;
      const config = await testConfig(backend, { PROPDATA_DB_POOL_SIZE: '6' });
      const limitedConfig = { ...config, databaseUrl: url.toString(), dbPoolSize: 6 };
      const stores = await openStores(limitedConfig);
      onTestFinished(() => stores.close());
      expect(await postgresConnectionRoom(stores.accounts)).toBe(2);
      const app = await buildApp({ config: limitedConfig, stores });
      onTestFinished(() => app.close());
      await app.ready();

      const list = () =>
        app.inject({
          method: 'GET',
          url: '/api/v1/dossiers',
          headers: { authorization: `Bearer ${world.memberA.token}` },
        });
      // More requests at once than the role may have connections: the pool tries to open more.
      const answers = await Promise.all(Array.from({ length: 16 }, list));
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      const refused = answers.filter((a) => a.statusCode === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const answer of refused) {
        expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(answer.headers['retry-after']).toBe('5');
        expect(answer.json<{ code: string; detail: string }>()).toMatchObject({
          code: 'overloaded',
          detail:
            'The account database cannot take the request now (busy or unreachable); try again later',
        });
      }
      // One at a time, the two connections serve.
      for (let i = 0; i < 5; i++) expect((await list()).statusCode).toBe(200);
    });

    it('outlive connections PostgreSQL ends under them, and take new ones', async () => {
      const world = await createWorld(backend);
      onTestFinished(() => world.close());
      const list = () =>
        call(world.app, { method: 'GET', url: '/api/v1/dossiers', token: world.memberA.token });
      expect((await list()).statusCode).toBe(200);
      const admin = new pg.Client({ connectionString: world.config.databaseUrl });
      await admin.connect();
      try {
        // The app's idle connections ended by the server, as a restart or failover ends them.
        const others = async () =>
          Number(
            (
              (
                await admin.query(
                  `select count(*) as n from pg_stat_activity
                 where datname = current_database() and pid <> pg_backend_pid()`,
                )
              ).rows[0] as { n: string }
            ).n,
          );
        expect(await others()).toBeGreaterThan(0);
        await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()`,
        );
        while ((await others()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        await admin.end();
      }
      // The pool heard of it (an unheard 'error' event would have ended the test process) and
      // serves on new connections; a request on a dropped one would be a 503, not a 500.
      for (let i = 0; i < 3; i++) {
        const answer = await list();
        expect([200, 503]).toContain(answer.statusCode);
      }
      expect((await list()).statusCode).toBe(200);
    });

    it('the shared page is a plain HTML busy page, not problem details', async () => {
      const world = await createWorld(backend, { app: { valueProperty: fixedValuer() } });
      onTestFinished(() => world.close());
      const dossierId = await createDossier(world);
      const shared = await call(world.app, {
        method: 'POST',
        url: '/api/v1/dossiers/links',
        token: world.memberA.token,
        payload: { dossierId },
      });
      expect(shared.statusCode, shared.body).toBe(201);
      const pagePath = new URL(shared.json<{ url: string }>().url).pathname;
      const role = `page_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: world.config.databaseUrl });
      await admin.connect();
      onTestFinished(() => admin.end());
      await admin.query(`create role ${role} login connection limit 2`);
      await admin.query(`grant all on all tables in schema public to ${role}`);
      const url = new URL(world.config.databaseUrl);
      url.username = role;
      const stores = await openStores({ ...world.config, databaseUrl: url.toString() });
      onTestFinished(() => stores.close());
      const app = await buildApp({ config: world.config, stores, valueProperty: fixedValuer() });
      onTestFinished(() => app.close());
      await app.ready();
      const view = () => app.inject({ method: 'GET', url: pagePath });
      expect((await view()).statusCode).toBe(200);

      // The role may open no connection, and its open ones are ended: the next view needs one.
      await admin.query(`alter role ${role} connection limit 0`);
      const roleBackends = async () => {
        const result = await admin.query<{ n: string }>(
          'select count(*) as n from pg_stat_activity where usename = $1',
          [role],
        );
        return Number(result.rows[0]?.n);
      };
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where usename = $1',
        [role],
      );
      while ((await roleBackends()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const refused = await view();
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.headers['content-security-policy']).toContain("default-src 'none'");
      expect(refused.body).toMatch(/^<!doctype html>/);
      expect(refused.body).not.toContain('problem');

      // Connections allowed again: the page serves (a view may still meet an ended connection
      // the pool had not yet heard of, and is a 503 page too).
      await admin.query(`alter role ${role} connection limit 2`);
      let served = await view();
      for (let i = 0; i < 5 && served.statusCode === 503; i++) served = await view();
      expect(served.statusCode).toBe(200);
    });

    it.each(['creating dossiers', 'recording dossier valuations'] as const)(
      'one organization waiting for its held row takes a share of the pool, not all of it: %s',
      async (what) => {
        // A pool of 4: one organization's transactions that take its row hold at most one.
        const world = await createWorld(backend, {
          env: { PROPDATA_DB_POOL_SIZE: '4' },
          app: { valueProperty: fixedValuer() },
        });
        onTestFinished(() => world.close());
        const dossier = await createDossier(world);
        const outside = await holdingRowOfA(world);
        const answered: string[] = [];
        const creations = Array.from({ length: 6 }, (_, i) =>
          call(
            world.app,
            what === 'creating dossiers'
              ? {
                  method: 'POST',
                  url: '/api/v1/dossiers',
                  token: world.memberA.token,
                  payload: { ...EXAMPLE_DOSSIER, title: `Waits ${String(i)}` },
                }
              : {
                  method: 'POST',
                  url: `/api/v1/dossiers/${dossier}/valuation`,
                  token: world.memberA.token,
                  payload: {},
                },
          ).then((res) => {
            answered.push(`A ${String(res.statusCode)}`);
            return res;
          }),
        );
        // A's transactions waiting for the row hold a connection each: one at a time, however
        // long they wait (sampled while all six are under way; with the whole pool theirs, four).
        const lockWaiters = async () => {
          const result = await outside.query<{ n: string }>(
            "select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and pid <> pg_backend_pid()",
          );
          return Number(result.rows[0]?.n);
        };
        while ((await lockWaiters()) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
        let most = 0;
        for (let i = 0; i < 30; i++) {
          most = Math.max(most, await lockWaiters());
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(most).toBe(1);
        // Another organization's request gets a connection while A's wait: it is answered before
        // any of them (with A's six holding the whole pool it waited for one to give up, 5 s).
        const other = await call(world.app, {
          method: 'GET',
          url: '/api/v1/dossiers?limit=1',
          token: world.memberB.token,
        });
        expect(other.statusCode).toBe(200);
        expect(answered).toEqual([]);
        await outside.query('rollback');
        const statuses = (await Promise.all(creations)).map((res) => res.statusCode);
        expect(statuses.every((status) => [200, 201, 503].includes(status))).toBe(true);
      },
    );

    it('a lock held from outside makes a write wait 5 s at the most, then 503; the others go on', async () => {
      const world = await createWorld(backend);
      onTestFinished(() => world.close());
      const outside = await holdingRowOfA(world);
      const create = (who: typeof world.memberA) =>
        call(world.app, {
          method: 'POST',
          url: '/api/v1/dossiers',
          token: who.token,
          payload: { ...EXAMPLE_DOSSIER, title: 'Waits for the lock' },
        });
      const started = Date.now();
      const refused = await create(world.memberA);
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.headers['retry-after']).toBe(String(limits.accountStore.retryAfterSeconds));
      // It waited for the lock (a lower bound only: the machine may be slow, never fast).
      expect(Date.now() - started).toBeGreaterThanOrEqual(limits.accountStore.lockWaitMs - 50);
      // Another organization's write does not wait for it.
      expect((await create(world.memberB)).statusCode).toBe(201);
      await outside.query('rollback');
      // Nothing was stored by the refused request; the next one is stored.
      const listed = await call(world.app, {
        method: 'GET',
        url: '/api/v1/dossiers',
        token: world.memberA.token,
      });
      expect(
        listed
          .json<{ items: { title: string }[] }>()
          .items.filter((d) => d.title === 'Waits for the lock'),
      ).toEqual([]);
      expect((await create(world.memberA)).statusCode).toBe(201);
    });

    it('the room for connections is the server’s, less the superusers’, for an ordinary role', async () => {
      const world = await createWorld(backend);
      onTestFinished(() => world.close());
      const admin = new pg.Client({ connectionString: world.config.databaseUrl });
      await admin.connect();
      try {
        const setting = async (name: string) =>
          Number(((await admin.query(`show ${name}`)).rows[0] as Record<string, string>)[name]);
        const max = await setting('max_connections');
        // The tests' cluster role is a superuser: it may use every connection.
        expect(await postgresConnectionRoom(world.stores.accounts)).toBe(max);
        const role = `plain_${randomBytes(4).toString('hex')}`;
        await admin.query(`create role ${role} login`);
        await admin.query(`grant all on all tables in schema public to ${role}`);
        const url = new URL(world.config.databaseUrl);
        url.username = role;
        const stores = await openStores({ ...world.config, databaseUrl: url.toString() });
        onTestFinished(() => stores.close());
        expect(await postgresConnectionRoom(stores.accounts)).toBe(
          max - (await setting('superuser_reserved_connections')),
        );
      } finally {
        await admin.end();
      }
    });
  },
);
