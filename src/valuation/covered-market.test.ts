import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFER_KEY_COLUMNS, snapshotOfOffers } from '../../test/helpers/market.js';
import { haversineMeters } from '../market/geo.js';
import { nearCountry } from '../market/queries/divisions.js';
import { limits } from '../limits.js';
import { snapshotCache } from './snapshot-cache.js';
import type { PropertyToValue } from './types.js';
import { estimateDeal } from './value-property.js';

/*
 * Where the market data ends: a dossier's coordinates are accepted within
 * `limits.dossiers.countryReachKm` of a postcode centroid of the country (nearCountry), and the
 * model values no point beyond the same distance. A point out at sea west of France's
 * westernmost postcode is just within or just beyond it.
 */
describe('the covered market', () => {
  let db: DuckDBConnection;
  let close: () => void;
  beforeAll(async () => {
    const rows = Array.from({ length: 8 }, (_, k) => [
      `fr-${String(k)}`,
      'FR',
      'sale',
      'apartment',
      '2023-06-15',
      400_000 + k * 1000,
      50,
      '75005',
      48.8462 + k * 0.001,
      2.344,
    ]);
    ({ db, close } = await snapshotOfOffers(
      [...OFFER_KEY_COLUMNS, 'salePrice', 'livingArea', 'postalCode', 'latitude', 'longitude'],
      rows,
      '2024-01-01',
    ));
  });
  afterAll(() => close());

  /** A point `north` km north and `west` km west of France's westernmost postcode centroid, and
   * the distance to its nearest centroid. */
  const offFrance = async (west: number, north = 0) => {
    const cache = await snapshotCache(db);
    const postcodes = cache.postcodes.get('FR') ?? [];
    const edge = postcodes.reduce((a, b) => (b.longitude < a.longitude ? b : a));
    const point = {
      latitude: edge.latitude + north / 111.195,
      longitude:
        edge.longitude - (west * 1000) / (111_195 * Math.cos((edge.latitude * Math.PI) / 180)),
    };
    const nearest = Math.min(
      ...postcodes.map((p) =>
        haversineMeters(point.latitude, point.longitude, p.latitude, p.longitude),
      ),
    );
    return { point, nearestKm: nearest / 1000 };
  };

  const property = (point: { latitude: number; longitude: number }, postalCode?: string) =>
    ({
      countryCode: 'FR',
      propertyType: 'apartment',
      ...point,
      locationPrecision: 'exact',
      livingArea: 50,
      ...(postalCode ? { postalCode } : {}),
    }) as PropertyToValue;

  it('accepts and values up to the reach, and refuses beyond it, measured alike', async () => {
    const reach = limits.dossiers.countryReachKm;
    const within = await offFrance(reach - 1);
    const beyond = await offFrance(reach + 1);
    expect(within.nearestKm).toBeLessThan(reach);
    expect(beyond.nearestKm).toBeGreaterThan(reach);

    expect(await nearCountry(db, 'FR', within.point, reach)).toBe(true);
    expect(await nearCountry(db, 'FR', beyond.point, reach)).toBe(false);
    // Diagonally, a box of the reach would hold a point 1.3 times as far: the reach is a circle.
    const diagonal = await offFrance(reach * 0.92, reach * 0.92);
    expect(diagonal.nearestKm).toBeGreaterThan(reach);
    expect(await nearCountry(db, 'FR', diagonal.point, reach)).toBe(false);

    const outside = /more than 30 km from every postcode of FR/;
    await expect(estimateDeal(db, property(beyond.point), 'sale', '2024-01-01')).rejects.toThrow(
      outside,
    );
    // Within reach, what stops it is the comparables (none at sea), not the place.
    await expect(estimateDeal(db, property(within.point), 'sale', '2024-01-01')).rejects.toThrow(
      /too few comparable/,
    );
  });

  it('measures to the nearest centroid, not to a stated postcode centred farther away', async () => {
    // A Paris point stating a Marseille postcode (660 km): in the market, valued in that postcode.
    const paris = { latitude: 48.8462, longitude: 2.344 };
    const error = await estimateDeal(db, property(paris, '13001'), 'sale', '2024-01-01').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(error)).not.toMatch(/from every postcode/);
    const valued = await estimateDeal(db, property(paris, '75005'), 'sale', '2024-01-01');
    expect(valued.value).toBeGreaterThan(0);
  });
});
