import os from 'node:os';
import path from 'node:path';
import envSchema from 'env-schema';
import { Type, type Static } from 'typebox';
import { limits } from './limits.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The default memory for offer statistics' division slices: a sixteenth of the machine's
 * memory, at most limits.statistics.defaultCacheMaxMb — enough for the busiest divisions of a
 * 10 M-offer market without crowding DuckDB's buffer pool (80% of memory by default).
 */
function defaultStatsCacheMb(): number {
  return Math.min(
    limits.statistics.defaultCacheMaxMb,
    Math.floor(os.totalmem() / 16 / 1024 / 1024),
  );
}

/** A thirty-second of the machine's memory, at most limits.valuation.defaultCacheMaxMb. */
function defaultValuationCacheMb(): number {
  return Math.min(limits.valuation.defaultCacheMaxMb, Math.floor(os.totalmem() / 32 / 1024 / 1024));
}

/** The environment variables the service reads; documented in the README's configuration table. */
/** Fewest values a statistics group needs for its `value` (PROPDATA_MIN_SAMPLE). */
export const MIN_SAMPLE_DEFAULT = 5;

const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  PROPDATA_DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  DATABASE_URL: Type.Optional(
    Type.String({ pattern: '^(postgres|postgresql|sqlite):', minLength: 8 }),
  ),
  PROPDATA_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 31_536_000, default: 7200 }),
  PROPDATA_TOKEN_CACHE_MS: Type.Integer({
    minimum: 0,
    maximum: limits.tokenCache.maxMs,
    default: limits.tokenCache.defaultMs,
  }),
  PROPDATA_MIN_SAMPLE: Type.Integer({ minimum: 1, maximum: 1000, default: MIN_SAMPLE_DEFAULT }),
  PROPDATA_DUCKDB_THREADS: Type.Integer({ minimum: 0, maximum: 256, default: 0 }),
  PROPDATA_DUCKDB_MEMORY_LIMIT: Type.String({
    pattern: '^(|[0-9]+(\\.[0-9]+)?\\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB))$',
    default: '',
  }),
  PROPDATA_STATS_CACHE_MB: Type.Integer({
    minimum: 0,
    maximum: 1_048_576,
    default: defaultStatsCacheMb(),
  }),
  PROPDATA_STORAGE_PER_ORGANIZATION_MB: Type.Integer({
    minimum: 1,
    maximum: 1_073_741_824,
    default: limits.storage.defaultMbPerOrganization,
  }),
  PROPDATA_VALUATION_CACHE_MB: Type.Integer({
    minimum: 0,
    maximum: 1_048_576,
    default: defaultValuationCacheMb(),
  }),
  PROPDATA_RATE_LIMIT_PER_MINUTE: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    default: limits.rateLimit.defaultPerMinute,
  }),
  PROPDATA_MAX_EVENT_LOOP_DELAY_MS: Type.Integer({
    minimum: 1,
    maximum: 600_000,
    default: limits.overload.defaultMaxEventLoopDelayMs,
  }),
  PROPDATA_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 86_400_000,
    default: limits.timeouts.defaultKeepAliveMs,
  }),
  PROPDATA_MAX_CONNECTIONS: Type.Optional(Type.Integer({ minimum: 16, maximum: 1_000_000 })),
  PROPDATA_DB_POOL_SIZE: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: limits.accountStore.defaultPostgresPoolSize,
  }),
  PROPDATA_METRICS_TOKEN: Type.Optional(Type.String({ minLength: 32, maxLength: 256 })),
  PROPDATA_PUBLIC_BASE_URL: Type.Optional(
    Type.String({ pattern: '^https?://[^\\s/?#]+(/[^\\s?#]*)?$', maxLength: 500 }),
  ),
  LOG_LEVEL: Type.Unsafe<(typeof LOG_LEVELS)[number]>({
    type: 'string',
    enum: [...LOG_LEVELS],
    default: 'info',
  }),
});
type Env = Static<typeof EnvSchema>;

export type LogLevel = Env['LOG_LEVEL'];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `sqlite:<file>` or `postgres://…`; defaults to an SQLite file in the data directory. */
  databaseUrl: string;
  /** Connections this process may open to PostgreSQL. */
  dbPoolSize: number;
  /** Lifetime of the access tokens handed out by the login endpoint. */
  loginTokenTtlSeconds: number;
  /** How long a token's owner is kept in memory after a lookup; 0: looked up on every request. */
  tokenCacheMs: number;
  logLevel: LogLevel;
  /** Offer statistics leave a value out when a group has fewer values than this. */
  minSample: number;
  /** DuckDB threads per process for market queries; 0: DuckDB's default (one per core). */
  duckdbThreads: number;
  /** DuckDB buffer pool limit per process for market queries (e.g. `512MB`); '': DuckDB's default. */
  duckdbMemoryLimit: string;
  /** Memory (MB) for offer statistics' division slices per snapshot; 0: statistics in SQL only. */
  statsCacheMb: number;
  /** Memory (MB) for the offers around valued places (src/valuation/place-tiles.ts); 0: none. */
  valuationCacheMb: number;
  /** Bytes of stored files (attachments with their print versions, covers) an organization
   * may keep (`limits.storage`). */
  storageBytesPerOrganization: number;
  /** Requests per token and minute; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Event loop lag above which new requests are shed with 503. */
  maxEventLoopDelayMs: number;
  /** Idle keep-alive connections are closed after this; longer than a proxy's idle timeout. */
  keepAliveTimeoutMs: number;
  /** Open connections per process; unset: from the open-files limit (src/http/connection-cap.ts). */
  maxConnections?: number;
  /** The bearer token `GET /metrics` requires; unset: there is no `/metrics`. */
  metricsToken?: string;
  /** Where people reach the service: dossier sharing links are built on it (no trailing slash). */
  publicBaseUrl: string;
}

export class ConfigError extends Error {}

/**
 * Reads and checks the environment once at start, so a typo fails the start with a message that
 * names the variable instead of surfacing later as an odd runtime error.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  let parsed: Env;
  try {
    parsed = envSchema<Env>({ schema: EnvSchema, data: env, env: false, dotenv: false });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`Invalid configuration: ${message.replaceAll('env/', '')}`);
  }
  const dataDir = path.resolve(parsed.PROPDATA_DATA_DIR);
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir,
    databaseUrl: parsed.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'accounts.sqlite')}`,
    dbPoolSize: parsed.PROPDATA_DB_POOL_SIZE,
    loginTokenTtlSeconds: parsed.PROPDATA_TOKEN_TTL_SECONDS,
    tokenCacheMs: parsed.PROPDATA_TOKEN_CACHE_MS,
    logLevel: parsed.LOG_LEVEL,
    minSample: parsed.PROPDATA_MIN_SAMPLE,
    duckdbThreads: parsed.PROPDATA_DUCKDB_THREADS,
    duckdbMemoryLimit: parsed.PROPDATA_DUCKDB_MEMORY_LIMIT,
    statsCacheMb: parsed.PROPDATA_STATS_CACHE_MB,
    valuationCacheMb: parsed.PROPDATA_VALUATION_CACHE_MB,
    storageBytesPerOrganization: parsed.PROPDATA_STORAGE_PER_ORGANIZATION_MB * 1024 * 1024,
    rateLimitPerMinute: parsed.PROPDATA_RATE_LIMIT_PER_MINUTE,
    maxEventLoopDelayMs: parsed.PROPDATA_MAX_EVENT_LOOP_DELAY_MS,
    keepAliveTimeoutMs: parsed.PROPDATA_KEEP_ALIVE_TIMEOUT_MS,
    ...(parsed.PROPDATA_MAX_CONNECTIONS !== undefined
      ? { maxConnections: parsed.PROPDATA_MAX_CONNECTIONS }
      : {}),
    ...(parsed.PROPDATA_METRICS_TOKEN ? { metricsToken: parsed.PROPDATA_METRICS_TOKEN } : {}),
    publicBaseUrl: (
      parsed.PROPDATA_PUBLIC_BASE_URL ?? `http://${parsed.HOST}:${String(parsed.PORT)}`
    ).replace(/\/+$/, ''),
  };
}
