import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { OFFER_KEY_COLUMNS, snapshotOfOffers } from '../../test/helpers/market.js';
import { findComparables, searchPlan, type SearchStep } from './comparables.js';
import { locate, snapshotCache } from './snapshot-cache.js';
import type { PropertyToValue } from './types.js';
import { kernelMeters } from './value-property.js';

/**
 * A district searched past 5 km (the département of Pyrénées-Atlantiques): 12 older
 * sales in Saint-Jean-de-Luz, about 9 km from the property in Hendaye, and 300 newer ones in
 * Bayonne, about 25 km away, and 5 there without coordinates. A query answers at most 300
 * rows.
 */
const HEADER = [
  ...OFFER_KEY_COLUMNS,
  'salePrice',
  'livingArea',
  'postalCode',
  'latitude',
  'longitude',
];
const NEAR = Array.from({ length: 12 }, (_, i) => [
  `near-${String(i)}`,
  'FR',
  'sale',
  'apartment',
  `2023-0${String(1 + (i % 9))}-10`,
  300_000 + 1000 * i,
  60,
  '64500',
  43.3887 + 0.0005 * (i % 4),
  -1.6627 + 0.0005 * Math.floor(i / 4),
]);
const FAR = Array.from({ length: 300 }, (_, i) => [
  `far-${String(i)}`,
  'FR',
  'sale',
  'apartment',
  `2026-0${String(1 + (i % 9))}-${String(10 + (i % 15))}`,
  250_000 + 100 * i,
  60,
  '64100',
  43.4929 + 0.0002 * (i % 20),
  -1.4748 + 0.0002 * Math.floor(i / 20),
]);

/** Five sales in Bayonne without coordinates, the newest of all. */
const UNPLACED = Array.from({ length: 5 }, (_, i) => [
  `unplaced-${String(i)}`,
  'FR',
  'sale',
  'apartment',
  '2026-09-30',
  260_000,
  60,
  '64100',
  '',
  '',
]);

const hendaye = (locationPrecision: 'exact' | 'postcode'): PropertyToValue => ({
  countryCode: 'FR',
  propertyType: 'apartment',
  latitude: 43.3581,
  longitude: -1.7744,
  locationPrecision,
  postalCode: '64700',
  livingArea: 60,
});

let db: DuckDBConnection;
let close: () => void;
beforeAll(async () => {
  ({ db, close } = await snapshotOfOffers(HEADER, [...NEAR, ...FAR, ...UNPLACED], '2026-11-01'));
});
afterAll(() => close());

/** The comparables of the district step for the property. */
async function district(property: PropertyToValue) {
  const cache = await snapshotCache(db);
  const postcode = locate(cache, 'FR', property.latitude, property.longitude, property.postalCode);
  if (!postcode) throw new Error('no postcode');
  const step = searchPlan(property, postcode)
    .flatMap((q) => q.steps)
    .find(
      (s): s is SearchStep => s.area.kind === 'division' && s.area.column === 'division_level6',
    );
  if (!step) throw new Error('no district step');
  return findComparables(db, property, postcode, 'sale', step, '2026-10-01');
}

describe('a division searched for a property at a point', () => {
  it('gives its nearest offers first, not its newest', async () => {
    const found = await district(hendaye('exact'));
    expect(found).toHaveLength(300);
    const first = found.slice(0, 12).map((c) => c.distance ?? Infinity);
    expect(Math.max(...first)).toBeLessThan(12_000);
    expect(Math.min(...found.slice(12).map((c) => c.distance ?? 0))).toBeGreaterThan(20_000);
    // Offers without coordinates come last: past the 300 rows here.
    expect(found.every((c) => c.distance !== null)).toBe(true);
  });

  it('gives its newest offers for a property known by its postcode', async () => {
    const found = await district(hendaye('postcode'));
    expect(found).toHaveLength(300);
    // The newest sales of Bayonne fill the answer, those without coordinates first; the older
    // ones nearby are not in it.
    expect(found.every((c) => c.month >= 2026 * 12)).toBe(true);
    expect(found.slice(0, 5).every((c) => c.distance === null)).toBe(true);
  });
});

describe('kernelMeters', () => {
  const at = (distance: number | null) => ({ y: 8, x: [], month: 24_300, distance, postcode: '1' });

  it('is the distance of the 12th nearest comparable, at least 5 km', () => {
    const distances = Array.from({ length: 20 }, (_, i) => 30_000 - 1000 * i);
    expect(kernelMeters(distances.map(at))).toBe(22_000);
    expect(kernelMeters([at(100), at(200), at(null)])).toBe(5000);
    expect(kernelMeters([at(8000), at(9000), at(null)])).toBe(9000);
  });

  it('is null where the comparables have no coordinates', () => {
    expect(kernelMeters([at(null), at(null)])).toBeNull();
  });
});
