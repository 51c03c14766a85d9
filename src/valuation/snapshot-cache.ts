import type { DuckDBConnection } from '@duckdb/node-api';
import { normalizePostcode } from '../market/countries.js';
import { databaseIdentity, queryPrepared } from '../market/duck.js';
import { hasModelSums } from './model-sums.js';
import { textOrNull } from '../market/queries/values.js';

/**
 * What the model keeps in memory per market snapshot (a snapshot never changes once published):
 * the postcodes that place a property, the recorded listing noise and regional statistics.
 */
export interface Postcode {
  id: string;
  level6: string | null;
  level8: string | null;
  latitude: number;
  longitude: number;
}

export interface SnapshotCache {
  key: string;
  postcodes: Map<string, Postcode[]>;
  /** The same postcodes by country and id. */
  places: Map<string, Map<string, Postcode>>;
  /** Known noise of asking prices around true values, by deal type (demo data only). */
  listingNoise: Map<string, number>;
  /** Whether the snapshot holds the model's precomputed sums (`model-sums.ts`). */
  hasModelSums: boolean;
  /** Regional statistics by region, least recently used dropped first. */
  regional: Map<string, unknown>;
  /**
   * Regional models fitted from those statistics, by region, deal type and month: cheap to
   * refit, so fewer are kept (a backtest values at many months; the service mostly at today's).
   */
  models: Map<string, unknown>;
}

const REGIONAL_ENTRIES = 4000;
const MODEL_ENTRIES = 500;
const SNAPSHOTS = 4;
const caches = new Map<string, Promise<SnapshotCache>>();

async function load(db: DuckDBConnection, key: string): Promise<SnapshotCache> {
  const postcodes = new Map<string, Postcode[]>();
  const rows = await queryPrepared(
    db,
    `select country_code, id, level6_id, level8_id, latitude, longitude from divisions
     where level = 100 and latitude is not null order by country_code, id`,
    {},
  );
  for (const r of rows) {
    const cc = String(r.country_code);
    let list = postcodes.get(cc);
    if (!list) postcodes.set(cc, (list = []));
    list.push({
      id: String(r.id),
      level6: textOrNull(r.level6_id),
      level8: textOrNull(r.level8_id),
      latitude: Number(r.latitude),
      longitude: Number(r.longitude),
    });
  }
  const listingNoise = new Map<string, number>();
  const info = await queryPrepared(
    db,
    "select key, value from snapshot_info where key like 'listing_noise.%'",
    {},
  );
  for (const r of info)
    listingNoise.set(String(r.key).slice('listing_noise.'.length), Number(r.value));
  return {
    key,
    postcodes,
    places: new Map([...postcodes].map(([cc, list]) => [cc, new Map(list.map((p) => [p.id, p]))])),
    listingNoise,
    hasModelSums: await hasModelSums(db),
    regional: new Map(),
    models: new Map(),
  };
}

/** The cache of the snapshot `db` reads (the database name is unique per snapshot file). */
export async function snapshotCache(db: DuckDBConnection): Promise<SnapshotCache> {
  const key = (await databaseIdentity(db)).name;
  let cache = caches.get(key);
  if (!cache) {
    cache = load(db, key);
    caches.set(key, cache);
    cache.catch(() => caches.delete(key));
    if (caches.size > SNAPSHOTS) {
      const oldest = caches.keys().next().value;
      if (oldest !== undefined) caches.delete(oldest);
    }
  }
  return cache;
}

/** Reads or computes an entry of a bounded map, least recently used dropped first. */
async function cachedIn<T>(
  entries: Map<string, unknown>,
  limit: number,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  const known = entries.get(key) as Promise<T> | undefined;
  if (known) {
    entries.delete(key);
    entries.set(key, known);
    return known;
  }
  const value = compute();
  entries.set(key, value);
  value.catch(() => entries.delete(key));
  if (entries.size > limit) {
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  return value;
}

/** Reads or computes a regional entry (statistics read from the snapshot). */
export function cachedRegional<T>(
  cache: SnapshotCache,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  return cachedIn(cache.regional, REGIONAL_ENTRIES, key, compute);
}

/** Reads or computes a regional model (fitted in memory from the regional entries). */
export function cachedModel<T>(
  cache: SnapshotCache,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  return cachedIn(cache.models, MODEL_ENTRIES, key, compute);
}

const RAD = Math.PI / 180;

export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x = (lon2 - lon1) * RAD * Math.cos(((lat1 + lat2) / 2) * RAD);
  const y = (lat2 - lat1) * RAD;
  return 6_371_000 * Math.sqrt(x * x + y * y);
}

/**
 * The postcode of the property: the stated one when known, else the nearest centroid; of codes
 * at the same distance (many share a centroid in the source) the smallest id, the first of the
 * list, as the import and the area indicators choose.
 */
export function locate(
  cache: SnapshotCache,
  countryCode: string,
  latitude: number,
  longitude: number,
  postalCode?: string,
): Postcode | undefined {
  const list = cache.postcodes.get(countryCode) ?? [];
  if (postalCode !== undefined) {
    const stated = cache.places.get(countryCode)?.get(normalizePostcode(postalCode));
    if (stated) return stated;
  }
  let best: Postcode | undefined;
  let bestD = Infinity;
  for (const p of list) {
    const d = distanceMeters(latitude, longitude, p.latitude, p.longitude);
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best;
}
