import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFER_KEY_COLUMNS, snapshotOfOffers } from '../../test/helpers/market.js';
import { queryRows } from '../market/duck.js';
import {
  EVERY_COUNTRY,
  LOCAL_VARIANCE_TABLE,
  localVariation,
  momentsOfRow,
  POOLED,
} from './local-variance.js';
import { snapshotCache } from './snapshot-cache.js';
import type { PropertyToValue } from './types.js';
import { estimateDeal } from './value-property.js';

const HEADER = [
  ...OFFER_KEY_COLUMNS,
  'salePrice',
  'rentGross',
  'livingArea',
  'postalCode',
  'latitude',
  'longitude',
];
/**
 * Paris: 40 cells of 200 m with 4 sales each, whose prices scatter within the cell, so that
 * France measures a single sale's spread. Vienna: 14 sales at points of their own (no cell holds
 * two: nothing measured in Austria), all at one price per m², and 14 rents known only by their
 * postcode, at one price per m² too.
 */
function rows(): (string | number | null)[][] {
  const out: (string | number | null)[][] = [];
  const scatter = [0.82, 1.0, 1.1, 1.25];
  for (let cell = 0; cell < 40; cell++) {
    for (let k = 0; k < 4; k++) {
      const price = Math.round(50 * 10_000 * (1 + cell / 100) * (scatter[(cell + k) % 4] ?? 1));
      out.push([
        `fr-${String(cell)}-${String(k)}`,
        'FR',
        'sale',
        'apartment',
        '2023-06-15',
        price,
        null,
        50,
        '75005',
        48.8462 + (cell % 8) * 0.004 + k * 0.0001,
        2.344 + Math.floor(cell / 8) * 0.006 + k * 0.0001,
      ]);
    }
  }
  for (let k = 0; k < 14; k++) {
    const at = [48.2087 + (k % 4) * 0.0025, 16.3695 + Math.floor(k / 4) * 0.0035];
    out.push([
      `at-s${String(k)}`,
      'AT',
      'sale',
      'apartment',
      '2023-06-15',
      500_000,
      null,
      50,
      '1010',
      ...at,
    ]);
    out.push([
      `at-r${String(k)}`,
      'AT',
      'rent',
      'apartment',
      '2023-06-15',
      null,
      1000,
      50,
      '1010',
      null,
      null,
    ]);
  }
  return out;
}

describe('a single offer’s spread where a country measures none', () => {
  let db: DuckDBConnection;
  const closers: (() => void)[] = [];
  beforeAll(async () => {
    const snapshot = await snapshotOfOffers(HEADER, rows(), '2024-01-01');
    db = snapshot.db;
    closers.push(snapshot.close);
  });
  afterAll(() => {
    for (const close of closers) close();
  });

  const vienna: PropertyToValue = {
    countryCode: 'AT',
    propertyType: 'apartment',
    latitude: 48.2095,
    longitude: 16.371,
    locationPrecision: 'exact',
    postalCode: '1010',
    livingArea: 50,
  };

  it('is every country’s, where the country’s offers have points but share no cell', async () => {
    const pooled = await queryRows(
      db,
      `select * from ${LOCAL_VARIANCE_TABLE} where region_kind = '${POOLED}' and deal_type = 'sale'`,
    );
    const of = (country: string) => pooled.find((r) => r.country_code === country);
    const france = momentsOfRow(of('FR') ?? {});
    const every = momentsOfRow(of(EVERY_COUNTRY) ?? {});
    // France is the only country with cells of two: every country's spread is France's.
    expect(france.saleSpread).toBeGreaterThan(0.1);
    expect(every.saleSpread).toBeCloseTo(france.saleSpread ?? NaN, 12);
    expect(of('AT')?.sale_spread ?? null).toBeNull();

    const cache = await snapshotCache(db);
    const postcode = cache.places.get('AT')?.get('1010');
    if (!postcode) throw new Error('no postcode');
    const local = await localVariation(db, cache, 'AT', postcode, 'sale');
    expect(local.saleSpread).toBeUndefined();
    expect(local.everySaleSpread).toBeCloseTo(every.saleSpread ?? NaN, 12);

    // Fourteen sales at one price per m²: without the floor the range would be a few percent.
    const sale = await estimateDeal(db, vienna, 'sale', '2023-12-01');
    expect(sale.sd).toBeGreaterThanOrEqual(every.saleSpread ?? Infinity);
  });

  it('is none where offers have neither points nor addresses to measure it', async () => {
    // A listing known by its postcode, as Vienna's are: its postcode's rents, all alike, and no
    // street whose spread would floor it (address-spread.test.ts).
    const listing: PropertyToValue = { ...vienna, locationPrecision: 'postcode' };
    const rent = await estimateDeal(db, listing, 'rent', '2023-12-01');
    expect(rent.sd).toBeLessThan(0.05);
    // The same place's sales, with points, do take it.
    const sale = await estimateDeal(db, listing, 'sale', '2023-12-01');
    expect(sale.sd).toBeGreaterThan(0.1);
  });
});
