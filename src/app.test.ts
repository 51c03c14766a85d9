import { describe, expect, it } from 'vitest';
import { testConfig, createWorld, type World } from '../test/helpers/world.js';
import { buildApp, redactUrl } from './app.js';
import { openStores } from './stores.js';

describe('logging', () => {
  it('redacts the access_token query parameter', () => {
    expect(redactUrl('/api/v1/x?a=1&access_token=pd_secret&b=2')).toBe(
      '/api/v1/x?a=1&access_token=[redacted]&b=2',
    );
    expect(redactUrl('/api/v1/x?ACCESS_TOKEN=pd_secret')).toBe('/api/v1/x?ACCESS_TOKEN=[redacted]');
  });

  it('never writes tokens or passwords to the log', async () => {
    const lines: string[] = [];
    const config = await testConfig('sqlite', { LOG_LEVEL: 'trace' });
    const stores = await openStores(config);
    const world: World = await createWorld('sqlite');
    const app = await buildApp({
      config,
      stores,
      logStream: { write: (l: string) => void lines.push(l) },
    });
    try {
      await app.inject({
        url: '/api/v1/me',
        headers: { authorization: 'Bearer pd_header_secret_value' },
      });
      await app.inject({ url: '/api/v1/me?access_token=pd_query_secret_value' });
      await app.inject({
        method: 'POST',
        url: '/auth/login/credentials',
        payload: { username: 'someone', password: 'password_secret_value' },
      });
      const log = lines.join('');
      expect(log).toMatch(/incoming request/);
      expect(log).not.toMatch(/header_secret|query_secret|password_secret/);
    } finally {
      await app.close();
      await stores.close();
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
