import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  ADDRESSED_RENT_COLUMNS,
  addressedRent,
  snapshotOfOffers,
} from '../../test/helpers/market.js';
import { Random } from '../market/generate/random.js';
import { addressVariation } from './address-effects.js';
import { snapshotCache } from './snapshot-cache.js';
import type { PropertyToValue } from './types.js';
import { estimateDeal } from './value-property.js';

const STREETS = 40;
const BUILDINGS = 4;
const PER_BUILDING = 4;
/** Flats of one new building in the other postcode, all let at nearly one rent per m². */
const NEW_FLATS = 150;

/** Street names without digits (a digit would be read as the house number). */
const streetName = (i: number) =>
  `${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}gasse`;

/**
 * Listings without coordinates, as Vienna's: in 1100 streets and buildings whose rents differ
 * (a single listing lies about 0.16 from its street's mean), in 1210 a new building whose 150
 * flats are let at one rent per m² give that postcode's comparables almost no spread.
 */
function rows(): (string | number)[][] {
  const random = new Random(11);
  const out: (string | number)[][] = [];
  const listing = (
    id: string,
    rent: number,
    area: number,
    postcode: string,
    street: string,
    house: string,
  ) => out.push(addressedRent(random, { id, rent, area, postcode, street, house }));
  for (let s = 0; s < STREETS; s++) {
    const street = 0.12 * random.normal();
    for (let b = 1; b <= BUILDINGS; b++) {
      const building = street + 0.14 * random.normal();
      for (let i = 0; i < PER_BUILDING; i++) {
        const area = 50 + random.int(0, 19);
        const rent = 15 * area * Math.exp(building + 0.08 * random.normal());
        listing(
          `o-${String(s)}-${String(b)}-${String(i)}`,
          rent,
          area,
          '1100',
          streetName(s),
          String(b),
        );
      }
    }
  }
  for (let i = 0; i < NEW_FLATS; i++) {
    const area = 50 + random.int(0, 19);
    const rent = 16 * area * Math.exp(0.01 * random.normal());
    listing(`new-${String(i)}`, rent, area, '1210', 'Prager Straße', '105');
  }
  return out;
}

describe('a listing known by its postcode, among many alike', () => {
  let db: DuckDBConnection;
  let close = () => {};

  beforeAll(async () => {
    ({ db, close } = await snapshotOfOffers(ADDRESSED_RENT_COLUMNS, rows(), '2026-11-01'));
  });
  afterAll(() => close());

  const listing: PropertyToValue = {
    countryCode: 'AT',
    propertyType: 'apartment',
    latitude: 48.2705,
    longitude: 16.4,
    locationPrecision: 'postcode',
    postalCode: '1210',
    livingArea: 60,
  };

  async function measured() {
    const cache = await snapshotCache(db);
    const postcode = cache.places.get('AT')?.get('1210');
    if (!postcode) throw new Error('no postcode');
    const variation = await addressVariation(db, cache, 'AT', postcode, 'rent');
    if (!variation) throw new Error('no address variation measured');
    return variation;
  }

  it('is not placed closer to them than a listing lies to its own street', async () => {
    const variation = await measured();
    // Vienna's region (1100 and 1210 share it) measures single listings around their streets'
    // means over both postcodes' streets.
    expect(variation.streetSpread).toBeGreaterThan(0.1);
    const rent = await estimateDeal(db, listing, 'rent', '2026-10-01');
    // The 150 alike flats alone would make the value look certain to a few percent.
    expect(rent.central.spread).toBeLessThan(0.04);
    expect(rent.address).toBeUndefined();
    expect(rent.sd).toBeGreaterThanOrEqual(variation.streetSpread);
    expect(rent.confidence).not.toBe('good');
  });

  it('is bounded by its building’s offers instead where they moved the value', async () => {
    const variation = await measured();
    const inBuilding = { ...listing, street: 'Prager Str.', houseNumber: '105' };
    const rent = await estimateDeal(db, inBuilding, 'rent', '2026-10-01');
    expect(rent.address?.buildingOffers).toBeGreaterThan(100);
    // 150 flats of its own building let at one rent per m² do place a flat there closely.
    expect(rent.sd).toBeLessThan(variation.streetSpread / 2);
    expect(rent.confidence).toBe('good');
  });
});
