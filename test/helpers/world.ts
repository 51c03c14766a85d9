import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AccountBackend, AccountDb } from '../../src/accounts/database.js';
import { createOrganization } from '../../src/accounts/organizations.js';
import { issueToken } from '../../src/accounts/tokens.js';
import { hashPassword } from '../../src/accounts/passwords.js';
import type { UserRow } from '../../src/accounts/tables.js';
import { buildApp, type BuildAppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openStores, type Stores } from '../../src/stores.js';
import { freshDatabaseUrl } from './backends.js';
import { referenceDataDir } from './market.js';
import { TEST_SERVER_ENV } from './server-env.js';

export const PASSWORD = 'correct horse battery staple';

export interface Member {
  userId: string;
  organizationId: string;
  username: string;
  token: string;
}

export interface World {
  app: FastifyInstance;
  stores: Stores;
  config: Config;
  /** Organization A: an admin and a regular member. Organization B: an admin and a member. */
  adminA: Member;
  memberA: Member;
  adminB: Member;
  memberB: Member;
  close(): Promise<void>;
}

export async function testConfig(
  backend: AccountBackend,
  env: Record<string, string> = {},
): Promise<Config> {
  return loadConfig({
    PROPDATA_DATA_DIR: referenceDataDir(),
    DATABASE_URL: await freshDatabaseUrl(backend),
    LOG_LEVEL: 'silent',
    ...TEST_SERVER_ENV,
    ...env,
  });
}

// One scrypt hash of PASSWORD per test process, shared by the members of every world: a hash costs
// 128 MiB and, on a loaded machine, seconds, and each world has four members. The rows are
// otherwise those `createUser` writes (which the account tests use).
let passwordHash: Promise<string> | undefined;

async function member(
  stores: Stores,
  organizationId: string,
  username: string,
  isAdmin: boolean,
): Promise<Member> {
  const db = stores.accounts.db;
  const user: UserRow = {
    id: randomUUID(),
    organization_id: organizationId,
    username,
    password_hash: await (passwordHash ??= hashPassword(PASSWORD)),
    is_admin: isAdmin ? 1 : 0,
    created_at: new Date().toISOString(),
    disabled_at: null,
  };
  await db.insertInto('users').values(user).execute();
  const token = await issueToken(db, { userId: user.id, kind: 'api', ttlSeconds: 3600 });
  return { userId: user.id, organizationId, username, token: token.secret };
}

export interface WorldOptions {
  env?: Record<string, string>;
  beforeReady?: (app: FastifyInstance) => void;
  /** Extra app options: a fixed clock, a valuation model, shorter timeouts, a log sink, a
   * login throttle, the costly-work budget, the upload checker. */
  app?: Pick<
    BuildAppOptions,
    | 'now'
    | 'valueProperty'
    | 'timeouts'
    | 'logStream'
    | 'loginThrottle'
    | 'costlyWork'
    | 'pdfInspector'
  >;
  /** The account database as the app sees it, e.g. with a plugin that observes its queries. */
  appDb?: (db: AccountDb) => AccountDb;
}

/** A running app on real stores with two organizations, each with an admin and a member. */
export async function createWorld(
  backend: AccountBackend,
  options: WorldOptions = {},
): Promise<World> {
  const config = await testConfig(backend, options.env);
  const stores = await openStores(config);
  const db = stores.accounts.db;
  const orgA = await createOrganization(db, 'Org A');
  const orgB = await createOrganization(db, 'Org B');
  const [adminA, memberA, adminB, memberB] = await Promise.all([
    member(stores, orgA.id, 'admin-a', true),
    member(stores, orgA.id, 'member-a', false),
    member(stores, orgB.id, 'admin-b', true),
    member(stores, orgB.id, 'member-b', false),
  ]);
  const appStores = options.appDb
    ? { ...stores, accounts: { ...stores.accounts, db: options.appDb(db) } }
    : stores;
  const app = await buildApp({ config, stores: appStores, ...options.app });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    stores,
    config,
    adminA,
    memberA,
    adminB,
    memberB,
    async close() {
      await app.close();
      await stores.close();
    },
  };
}

/**
 * The world of the tests of the enclosing `describe`, read as `world()` inside them: made before
 * the first, closed after the last (also when a test fails).
 */
export function worldForSuite(backend: AccountBackend, options: WorldOptions = {}): () => World {
  let world: World | undefined;
  beforeAll(async () => {
    world = await createWorld(backend, options);
  });
  afterAll(() => world?.close());
  return () => {
    if (!world) throw new Error('the world is made before the first test');
    return world;
  };
}

/** `app.inject` with an optional bearer token. */
export function call(
  app: FastifyInstance,
  options: InjectOptions & { token?: string },
): Promise<LightMyRequestResponse> {
  const { token, headers, ...rest } = options;
  return app.inject({
    ...rest,
    headers: { ...(headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

/** POSTs `payload` as JSON to `url` with the token of `who` (default: member A). */
export function postAs(
  world: World,
  url: string,
  payload: unknown,
  who: Member = world.memberA,
): Promise<LightMyRequestResponse> {
  return call(world.app, { method: 'POST', url, token: who.token, payload: payload as object });
}

/** The answer, failing the test (with the body in the message) unless its status is `status`. */
export function expectStatus(res: LightMyRequestResponse, status = 200): LightMyRequestResponse {
  expect(res.statusCode, res.body).toBe(status);
  return res;
}

/** Options of `createWorld` for an app that logs at `info` into `lines`, a JSON line each. */
export function loggingInto(lines: string[]): {
  env: Record<string, string>;
  app: Pick<BuildAppOptions, 'logStream'>;
} {
  return {
    env: { LOG_LEVEL: 'info' },
    app: { logStream: { write: (line: string) => void lines.push(line) } },
  };
}
