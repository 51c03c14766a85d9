import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/backends.js';
import {
  csv,
  demoMarket,
  OFFER_KEY_COLUMNS,
  referenceDataDir,
  writeFile,
} from '../../test/helpers/market.js';
import { openDuck, queryRows } from '../market/duck.js';
import { radiusBox } from '../market/geo.js';
import { importFile } from '../market/import/run-import.js';
import { currentSnapshot, marketPaths } from '../market/snapshots.js';
import { findComparables, type Comparable, type SearchStep } from './comparables.js';
import {
  Divisions,
  EMPTY_TILE_BYTES,
  placeTiles,
  TILE_BYTES_PER_OFFER,
  TILE_DEGREES,
} from './place-tiles.js';
import { locate, snapshotCache } from './snapshot-cache.js';
import type { RegionKind } from './model-sums.js';
import type { DealType, PropertyToValue } from './types.js';

const TODAY = '2026-11-21';
const BUDGET = placeTiles.budgetBytes;

async function open(dataDir: string): Promise<{ instance: DuckDBInstance; db: DuckDBConnection }> {
  const file = currentSnapshot(marketPaths(dataDir));
  if (!file) throw new Error('no snapshot');
  const instance = await openDuck(file, { readOnly: true });
  return { instance, db: await instance.connect() };
}

interface Search {
  property: PropertyToValue;
  deal: DealType;
  step: SearchStep;
  until: string;
}

/** Nearest first, offers at the same distance by price (both sides order those by row). */
const canonical = (list: Comparable[]) =>
  [...list].sort((a, b) => (a.distance ?? 0) - (b.distance ?? 0) || a.y - b.y);

/**
 * The comparables a search finds in the tiles and by the query (`tiles: false`), in the order
 * of `canonical`: equal lists mean the same offers, also where the limit cuts through offers at
 * the same distance.
 */
async function bothWays(db: DuckDBConnection, s: Search): Promise<[Comparable[], Comparable[]]> {
  const cache = await snapshotCache(db);
  const postcode = locate(cache, s.property.countryCode, s.property.latitude, s.property.longitude);
  if (!postcode) throw new Error('no postcode');
  const find = (tiles: boolean) =>
    findComparables(db, s.property, postcode, s.deal, s.step, s.until, { tiles });
  const tiled = canonical(await find(true));
  return [tiled, canonical(await find(false))];
}

const radius = (meters: number, months: number, anyRegion = false): SearchStep => ({
  widening: 0,
  months,
  area: { kind: 'radius', meters, ...(anyRegion ? { anyRegion } : {}) },
});

// Tiles load on a search's first asking for them here (the service waits for the second).
beforeAll(() => placeTiles.reset(BUDGET, 1));
afterEach(() => placeTiles.reset(BUDGET, 1));

describe('comparables from the tiles in memory, on demo data', () => {
  let instance: DuckDBInstance;
  let db: DuckDBConnection;
  let searches: Search[];

  beforeAll(async () => {
    ({ instance, db } = await open(
      await demoMarket({ offers: 40_000, projects: 0, seed: 5, today: TODAY }),
    ));
    // Properties where offers are, of both deals and types, sizes and dates around them.
    const rows = await queryRows(
      db,
      `select country_code, deal_type, property_type, latitude, longitude, living_area
       from offers where latitude is not null order by hash(id) limit 120`,
    );
    searches = rows.flatMap((r, i) => {
      const property: PropertyToValue = {
        countryCode: String(r.country_code) as PropertyToValue['countryCode'],
        propertyType: String(r.property_type) as PropertyToValue['propertyType'],
        // Beside the offer, not on it.
        latitude: Number(r.latitude) + 0.0007 * ((i % 5) - 2),
        longitude: Number(r.longitude) - 0.0009 * ((i % 3) - 1),
        locationPrecision: 'exact',
        livingArea: Math.round(Number(r.living_area) * (0.8 + (i % 7) * 0.07)),
      };
      const deal = String(r.deal_type) as DealType;
      const until = i % 2 ? TODAY : '2025-03-09';
      return [
        { property, deal, until, step: radius(500, 24) },
        { property, deal, until, step: radius(1000, 24) },
        { property, deal, until, step: radius(1000, 60) },
        { property, deal, until, step: radius(1000, 60, true) },
      ];
    });
  });
  afterAll(() => {
    db.closeSync();
    instance.closeSync();
  });

  it('finds the same comparables as the query for every search they serve', async () => {
    const counts: number[] = [];
    for (const search of searches) {
      const [tiled, queried] = await bothWays(db, search);
      expect(tiled, JSON.stringify(search)).toEqual(queried);
      counts.push(tiled.length);
    }
    // The searches found offers, and the region's bound left some out: each fourth search is
    // the third without it.
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(2000);
    const beyondRegion = counts.filter((n, i) => i % 4 === 3 && n > (counts[i - 1] ?? 0));
    expect(beyondRegion.length).toBeGreaterThan(0);
    expect(placeTiles.bytes).toBeGreaterThan(0);
  });

  it('finds the same when searches run at once, loading each tile once', async () => {
    const some = searches.slice(0, 40);
    const atOnce = await Promise.all(
      some.map(async (s) => {
        const connection = await instance.connect();
        try {
          return (await bothWays(connection, s))[0];
        } finally {
          connection.closeSync();
        }
      }),
    );
    const heldAtOnce = placeTiles.bytes;
    placeTiles.reset();
    const oneByOne: Comparable[][] = [];
    for (const s of some) oneByOne.push((await bothWays(db, s))[0]);
    expect(atOnce).toEqual(oneByOne);
    // Tiles loaded twice at once would count twice.
    expect(heldAtOnce).toBe(placeTiles.bytes);
  });

  it('loads a place the second time it is searched, the query answering the first', async () => {
    placeTiles.reset(BUDGET, 2);
    const search = searches[0] as Search;
    const [first, firstQueried] = await bothWays(db, search);
    expect(placeTiles.bytes).toBe(0);
    const [second] = await bothWays(db, search);
    expect(placeTiles.bytes).toBeGreaterThan(0);
    expect(first).toEqual(firstQueried);
    expect(second).toEqual(first);
  });

  it('keeps within its budget, the query answering what does not fit', async () => {
    // About one busy tile's worth.
    placeTiles.reset(300 * TILE_BYTES_PER_OFFER, 1);
    for (const search of searches.slice(0, 60)) {
      const [tiled, queried] = await bothWays(db, search);
      expect(tiled).toEqual(queried);
      expect(placeTiles.bytes).toBeLessThanOrEqual(placeTiles.budgetBytes);
    }
    expect(placeTiles.bytes).toBeGreaterThan(0);
    placeTiles.reset(0);
    await bothWays(db, searches[0] as Search);
    expect(placeTiles.bytes).toBe(0);
  });

  it('counts the tiles of empty land against its budget', async () => {
    // 120 searches over the North Sea, where the demo market has no offers: each holds a few
    // empty tiles, and the budget bounds how many.
    placeTiles.reset(64 * EMPTY_TILE_BYTES, 1);
    for (let i = 0; i < 120; i++) {
      const property: PropertyToValue = {
        countryCode: 'DE',
        propertyType: 'apartment',
        latitude: 54.3 + 0.03 * Math.floor(i / 12),
        longitude: 6.0 + 0.03 * (i % 12),
        locationPrecision: 'exact',
        livingArea: 70,
      };
      const [tiled, queried] = await bothWays(db, {
        property,
        deal: 'sale',
        step: radius(1000, 24),
        until: TODAY,
      });
      expect(tiled).toEqual([]);
      expect(queried).toEqual([]);
      expect(placeTiles.bytes).toBeLessThanOrEqual(placeTiles.budgetBytes);
    }
    expect(placeTiles.bytes).toBeGreaterThan(placeTiles.budgetBytes / 2);
  });

  it('keeps nothing of a load that a reset overtook', async () => {
    const cache = await snapshotCache(db);
    // A search whose load is still running when the tiles are reset (the loads take queries;
    // the next turn of the event loop comes first).
    let caught = false;
    for (const s of searches.slice(0, 20)) {
      placeTiles.reset();
      const postcode = locate(
        cache,
        s.property.countryCode,
        s.property.latitude,
        s.property.longitude,
      );
      if (!postcode) throw new Error('no postcode');
      const state = { settled: false };
      const tiled = findComparables(db, s.property, postcode, s.deal, s.step, s.until).finally(
        () => (state.settled = true),
      );
      while (!state.settled && placeTiles.loadsInFlight === 0)
        await new Promise((resolve) => setImmediate(resolve));
      if (state.settled) continue;
      placeTiles.reset();
      const queried = canonical(
        await findComparables(db, s.property, postcode, s.deal, s.step, s.until, { tiles: false }),
      );
      expect(canonical(await tiled)).toEqual(queried);
      expect(placeTiles.bytes).toBe(0);
      // Loaded again, with the divisions now in use.
      const [again] = await bothWays(db, s);
      expect(again).toEqual(queried);
      expect(placeTiles.bytes).toBeGreaterThan(0);
      caught = true;
      break;
    }
    expect(caught).toBe(true);
  });

  it('leaves a search to the query when its own load fails', async () => {
    const connection = await instance.connect();
    connection.closeSync();
    const s = searches[0] as Search;
    const box = radiusBox(s.property.latitude, 500).dLat;
    const found = await placeTiles.search(
      connection,
      {
        snapshot: 'a closed connection',
        countryCode: s.property.countryCode,
        deal: s.deal,
        propertyType: s.property.propertyType,
      },
      {
        lat0: s.property.latitude - box,
        lat1: s.property.latitude + box,
        lon0: s.property.longitude - box,
        lon1: s.property.longitude + box,
        lat: s.property.latitude,
        lon: s.property.longitude,
        coslat: Math.cos((s.property.latitude * Math.PI) / 180),
        sinceDay: 0,
        untilDay: 30_000,
        amin: 10,
        amax: 2000,
        region: undefined,
        limit: 300,
      },
    );
    expect(found).toBeUndefined();
    expect(placeTiles.bytes).toBe(0);
    expect(placeTiles.loadsInFlight).toBe(0);
  });
});

describe('comparables from the tiles in memory, at the edges', () => {
  // Munich, on tile corners (0.01° × 0.01° cells): a busy place and a quiet one 1.8 km away.
  const center = { latitude: 48.14, longitude: 11.58 };
  const quiet = { latitude: 48.15, longitude: 11.6 };
  const tie = { latitude: 48.125, longitude: 11.625 };
  let instance: DuckDBInstance;
  let db: DuckDBConnection;

  beforeAll(async () => {
    const dataDir = referenceDataDir();
    const header = [...OFFER_KEY_COLUMNS, 'salePrice', 'livingArea', 'latitude', 'longitude'];
    const rows: (string | number)[][] = [];
    const offer = (lat: number, lon: number, price: number, day = '2026-05-04') =>
      rows.push([`o${String(rows.length)}`, 'DE', 'sale', 'apartment', day, price, 70, lat, lon]);
    // Offers on the cell lines through the quiet place and on the bounds of its 500 m box.
    // The box of a 500 m search step (comparables.ts).
    const { dLat, dLon } = radiusBox(quiet.latitude, 500);
    for (const [lat, lon] of [
      [quiet.latitude, quiet.longitude],
      [quiet.latitude, quiet.longitude + 0.003],
      [quiet.latitude - 0.002, quiet.longitude],
      [quiet.latitude + dLat, quiet.longitude],
      [quiet.latitude - dLat, quiet.longitude + 0.001],
      [quiet.latitude, quiet.longitude + dLon],
      [quiet.latitude, quiet.longitude - dLon],
      [quiet.latitude + dLat * 1.0000001, quiet.longitude],
      [quiet.latitude - 2 * TILE_DEGREES, quiet.longitude - TILE_DEGREES],
    ] as const)
      offer(lat, lon, 350_000 + rows.length * 1000);
    // 420 offers within 300 m of the center, more than a search returns, 30 of them at one point.
    for (let i = 0; i < 390; i++) {
      const angle = i * 2.399963;
      const r = 0.0027 * Math.sqrt((i + 1) / 390);
      offer(
        center.latitude + r * Math.sin(angle),
        center.longitude + r * Math.cos(angle),
        300_000 + i * 997,
      );
    }
    for (let i = 0; i < 30; i++)
      offer(center.latitude + 0.0011, center.longitude - 0.0013, 420_000);
    // 200 + 200 offers at two points exactly as far from `tie` (binary fractions of a degree),
    // in different tiles: the limit of 300 cuts through offers at the same distance.
    for (let i = 0; i < 200; i++) {
      offer(tie.latitude + 0.0078125, tie.longitude - 0.0078125, 200_000 + i * 100);
      offer(tie.latitude - 0.0078125, tie.longitude + 0.0078125, 600_000 + i * 100);
    }
    // On the bounds of the time window.
    offer(center.latitude + 0.0001, center.longitude, 500_000, '2024-11-20');
    offer(center.latitude + 0.0001, center.longitude, 510_000, '2024-11-19');
    const dir = tempDir();
    await importFile(dataDir, 'offers', writeFile(dir, 'edges.csv', csv(header, rows)), {
      today: TODAY,
    });
    ({ instance, db } = await open(dataDir));
  });
  afterAll(() => {
    db.closeSync();
    instance.closeSync();
  });

  const property = (latitude: number, longitude: number): PropertyToValue => ({
    countryCode: 'DE',
    propertyType: 'apartment',
    latitude,
    longitude,
    locationPrecision: 'exact',
    livingArea: 70,
  });

  const within500m = (lat: number, lon: number) =>
    bothWays(db, {
      property: property(lat, lon),
      deal: 'sale',
      step: radius(500, 24),
      until: TODAY,
    });

  it('finds what the query finds on cell lines, box bounds and the limit', async () => {
    for (const [lat, lon] of [
      [center.latitude, center.longitude],
      [center.latitude + 0.0042, center.longitude - 0.0031],
      [quiet.latitude, quiet.longitude],
      [quiet.latitude - TILE_DEGREES, quiet.longitude + TILE_DEGREES / 2],
    ] as const)
      for (const step of [radius(500, 24), radius(1000, 60)]) {
        const [tiled, queried] = await bothWays(db, {
          property: property(lat, lon),
          deal: 'sale',
          step,
          until: TODAY,
        });
        expect(tiled).toEqual(queried);
      }
    // The quiet place's box holds its bounds (the offer just beyond them is left out).
    const [bounds] = await within500m(quiet.latitude, quiet.longitude);
    expect(bounds).toHaveLength(7);
    // At the center the limit cut the 420 offers within 300 m; beside it, the first day of the
    // 24 months (731 days back: 2024-11-20) counts, the day before does not.
    const [atCenter] = await within500m(center.latitude, center.longitude);
    expect(atCenter).toHaveLength(300);
    const [all] = await within500m(center.latitude + 0.0001, center.longitude);
    expect(all.filter((c) => c.distance !== null && c.distance < 1)).toHaveLength(1);
  });

  it('cuts offers at the same distance where the query cuts them', async () => {
    const [tiled, queried] = await bothWays(db, {
      property: property(tie.latitude, tie.longitude),
      deal: 'sale',
      step: radius(1000, 24),
      until: TODAY,
    });
    expect(tiled).toHaveLength(300);
    expect(tiled).toEqual(queried);
    // All 300 lie at the one distance: the cut went through offers at the same distance.
    const distances = new Set(tiled.map((c) => Math.round(c.distance ?? 0)));
    expect(distances.size).toBe(1);
  });
});

describe('Divisions', () => {
  const a = { postcode: '80331', level8: '09162000', level6: '09' };
  const b = { postcode: '80333', level8: '09162000', level6: '09' };

  it('codes each triple once and notices a hash two triples share', () => {
    const divisions = new Divisions();
    expect(divisions.add(7, a)).toBe(true);
    expect(divisions.add(7, { ...a })).toBe(true);
    expect(divisions.add(9, b)).toBe(true);
    expect([divisions.code(7), divisions.code(9), divisions.code(8)]).toEqual([0, 1, -1]);
    expect(divisions.collided).toBe(false);
    expect(divisions.add(9, a)).toBe(false);
    expect(divisions.collided).toBe(true);
  });

  it('places triples in regions by the rule of the region filter', () => {
    const divisions = new Divisions();
    divisions.add(1, a);
    divisions.add(2, { postcode: 'x', level8: '09162000', level6: null });
    divisions.add(3, { postcode: 'y', level8: null, level6: null });
    const inRegion = (kind: RegionKind, id: string) =>
      [0, 1, 2].map((code) => divisions.regionOf[code] === divisions.regionCode({ kind, id }));
    expect(inRegion('level6', '09')).toEqual([true, false, false]);
    expect(inRegion('level8', '09162000')).toEqual([false, true, false]);
    expect(inRegion('country', '')).toEqual([false, false, true]);
    // A level 8 that has a level 6 is not a region of its own; an unknown region holds none.
    divisions.add(4, { postcode: 'z', level8: '05111000', level6: '05' });
    expect(divisions.regionCode({ kind: 'level8', id: '05111000' })).toBe(-1);
    expect(divisions.regionCode({ kind: 'level6', id: '07' })).toBe(-1);
    expect(divisions.regionOf[3]).toBe(divisions.regionCode({ kind: 'level6', id: '05' }));
  });
});
