import { describe, expect, it } from 'vitest';
import { createDossier } from '../test/helpers/fixtures.js';
import {
  testConfig,
  createWorld,
  expectStatus,
  postAs,
  type World,
} from '../test/helpers/world.js';
import { buildApp } from './app.js';
import { openStores } from './stores.js';

describe('logging', () => {
  it('never writes tokens or passwords to the log', async () => {
    const lines: string[] = [];
    const world: World = await createWorld('sqlite');
    // The world's stores, so that its tokens work; its own app does not log.
    const app = await buildApp({
      config: { ...world.config, logLevel: 'trace' },
      stores: world.stores,
      logStream: { write: (l: string) => void lines.push(l) },
    });
    try {
      await app.inject({
        url: '/api/v1/me',
        headers: { authorization: 'Bearer pd_header_secret_value' },
      });
      await app.inject({ url: '/api/v1/me?access_token=pd_query_secret_value' });
      // A working token under every spelling the query parser decodes to `access_token`, and
      // forms it does not, must not be written either.
      const token = world.memberA.token;
      for (const url of [
        `/api/v1/dossiers?access%5Ftoken=${token}`,
        `/api/v1/dossiers?%61ccess_token=${token}`,
        `/api/v1/dossiers?access_token[]=${token}`,
        `/api/v1/dossiers?limit=5;access_token=${token}`,
      ]) {
        await app.inject({ url });
      }
      expect(
        (await app.inject({ url: `/api/v1/dossiers?access%5Ftoken=${token}` })).statusCode,
      ).toBe(200);
      await app.inject({
        method: 'POST',
        url: '/auth/login/credentials',
        payload: { username: 'someone', password: 'password_secret_value' },
      });
      // Nor a shared page's secret, which opens the page without a token.
      const link = await postAs(world, '/api/v1/dossiers/links', {
        dossierId: await createDossier(world),
      });
      const pagePath = new URL(expectStatus(link, 201).json<{ url: string }>().url).pathname;
      const secret = pagePath.split('/').pop() ?? '';
      expect(secret).toHaveLength(43);
      for (const url of [pagePath, `${pagePath}/?lang=de`, `${pagePath.slice(0, -1)}%zz`]) {
        await app.inject({ url });
      }
      const log = lines.join('');
      expect(log).toMatch(/incoming request/);
      expect(log).toContain('/shared/dossier/[redacted]');
      expect(log).not.toMatch(/header_secret|query_secret|password_secret/);
      expect(log).not.toContain(token);
      expect(log).not.toContain(secret.slice(0, 20));
    } finally {
      await app.close();
      await world.close();
    }
  });
});

describe('route registration', () => {
  it('refuses an API route that does not declare how it authenticates', async () => {
    const config = await testConfig('sqlite');
    const stores = await openStores(config);
    const app = await buildApp({ config, stores });
    try {
      await expect(
        (async () => {
          app.get('/api/v1/forgotten', () => 'x');
          await app.ready();
        })(),
      ).rejects.toThrow(/must declare config.auth/);
    } finally {
      await stores.close();
    }
  });
});
