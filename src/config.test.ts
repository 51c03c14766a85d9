import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('data'),
      databaseUrl: `sqlite:${path.resolve('data', 'accounts.sqlite')}`,
      dbPoolSize: 10,
      loginTokenTtlSeconds: 7200,
      tokenCacheMs: 5000,
      logLevel: 'info',
      minSample: 5,
      duckdbThreads: 0,
      duckdbMemoryLimit: '',
      // A sixteenth of the machine's memory, at most 1 GiB.
      statsCacheMb: Math.min(1024, Math.floor(os.totalmem() / 16 / 2 ** 20)),
      // A thirty-second, at most 512 MiB.
      valuationCacheMb: Math.min(512, Math.floor(os.totalmem() / 32 / 2 ** 20)),
      storageBytesPerOrganization: 10 * 2 ** 30,
      rateLimitPerMinute: 1200,
      maxEventLoopDelayMs: 1000,
      keepAliveTimeoutMs: 72_000,
      publicBaseUrl: 'http://127.0.0.1:8080',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      PROPDATA_DATA_DIR: '/srv/propdata',
      DATABASE_URL: 'postgres://u:p@db:5432/propdata',
      PROPDATA_TOKEN_TTL_SECONDS: '600',
      PROPDATA_TOKEN_CACHE_MS: '0',
      LOG_LEVEL: 'warn',
      PROPDATA_RATE_LIMIT_PER_MINUTE: '0',
      PROPDATA_MAX_EVENT_LOOP_DELAY_MS: '250',
      PROPDATA_DUCKDB_MEMORY_LIMIT: '512MB',
      PROPDATA_KEEP_ALIVE_TIMEOUT_MS: '650000',
      PROPDATA_STATS_CACHE_MB: '0',
      PROPDATA_VALUATION_CACHE_MB: '64',
      PROPDATA_PUBLIC_BASE_URL: 'https://propdata.example.com/',
      PROPDATA_DB_POOL_SIZE: '40',
      PROPDATA_STORAGE_PER_ORGANIZATION_MB: '512',
    });
    expect(config).toMatchObject({
      statsCacheMb: 0,
      valuationCacheMb: 64,
      publicBaseUrl: 'https://propdata.example.com',
      duckdbMemoryLimit: '512MB',
      rateLimitPerMinute: 0,
      maxEventLoopDelayMs: 250,
      keepAliveTimeoutMs: 650_000,
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/srv/propdata',
      databaseUrl: 'postgres://u:p@db:5432/propdata',
      loginTokenTtlSeconds: 600,
      tokenCacheMs: 0,
      logLevel: 'warn',
      dbPoolSize: 40,
      storageBytesPerOrganization: 512 * 2 ** 20,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be integer/],
    [{ PORT: '70000' }, /PORT must be <= 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must match pattern/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be equal to one of the allowed values/],
    [{ PROPDATA_TOKEN_TTL_SECONDS: '5' }, /PROPDATA_TOKEN_TTL_SECONDS must be >= 60/],
    [{ PROPDATA_TOKEN_CACHE_MS: '60001' }, /PROPDATA_TOKEN_CACHE_MS must be <= 60000/],
    [{ PROPDATA_DUCKDB_MEMORY_LIMIT: 'lots' }, /PROPDATA_DUCKDB_MEMORY_LIMIT must match pattern/],
    [{ PROPDATA_KEEP_ALIVE_TIMEOUT_MS: '72' }, /PROPDATA_KEEP_ALIVE_TIMEOUT_MS must be >= 1000/],
    [{ PROPDATA_PUBLIC_BASE_URL: 'ftp://x' }, /PROPDATA_PUBLIC_BASE_URL must match pattern/],
    [{ PROPDATA_DB_POOL_SIZE: '0' }, /PROPDATA_DB_POOL_SIZE must be >= 1/],
    [
      { PROPDATA_STORAGE_PER_ORGANIZATION_MB: '0' },
      /PROPDATA_STORAGE_PER_ORGANIZATION_MB must be >= 1/,
    ],
  ])('fails fast with a message naming the variable: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
