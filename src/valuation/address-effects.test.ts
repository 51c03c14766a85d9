import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { tempDir } from '../../test/helpers/backends.js';
import {
  addressedRent,
  csv,
  ADDRESSED_RENT_COLUMNS,
  referenceDataDir,
  writeFile,
} from '../../test/helpers/market.js';
import { openDuck, queryRows } from '../market/duck.js';
import { Random } from '../market/generate/random.js';
import { importFile } from '../market/import/run-import.js';
import { currentSnapshot, marketPaths } from '../market/snapshots.js';
import {
  ADDRESS_VARIANCE_TABLE,
  addressShift,
  beyondNeighbourhood,
  type AddressOffer,
} from './address-effects.js';
import { localVariance, momentsOfRow } from './local-variance.js';
import type { PropertyToValue } from './types.js';
import { estimateDeal } from './value-property.js';

describe('addressShift', () => {
  const variation = { streetSd: 0.1, streetSpread: 0.2, buildingSd: 0.08, buildingSpread: 0.1 };
  const offer = (y: number, sameBuilding: boolean): AddressOffer => ({
    y,
    weight: 1,
    sameBuilding,
  });

  it('moves the value by the shrunk street and then building deviations', () => {
    const shift = addressShift(
      [offer(1.2, false), offer(1.1, false), offer(1.3, true), offer(1.25, true)],
      1,
      variation,
    );
    // Street: mean 0.2125 of 4, w = 0.01 / (0.01 + 0.04 / 4) = 0.5 → 0.10625.
    // Building: (0.3, 0.25) − 0.10625, mean 0.16875 of 2, w = 0.0064 / (0.0064 + 0.01 / 2).
    const wb = 0.0064 / 0.0114;
    expect(shift.shift).toBeCloseTo(0.10625 + wb * 0.16875, 12);
    expect(shift.explained).toBeCloseTo(0.5 * 0.01 + wb * 0.0064, 12);
    // Building scatter 0.1² plus what neither effect explains: half of τ_s², (1 − wb) of τ_b².
    expect(shift.remaining).toBeCloseTo(0.01 + 0.5 * 0.01 + (1 - wb) * 0.0064, 12);
    expect([shift.streetOffers, shift.buildingOffers]).toEqual([4, 2]);
  });

  it('leaves the street only what the neighbourhood around the point does not say', () => {
    expect(beyondNeighbourhood(variation, 0)).toEqual(variation);
    expect(beyondNeighbourhood(variation, 0.06).streetSd).toBeCloseTo(0.08, 12); // √(0.01 − 0.0036)
    expect(beyondNeighbourhood(variation, 0.2).streetSd).toBe(0);
    expect(beyondNeighbourhood(variation, 0.2).buildingSd).toBe(0.08);
  });

  it('clips single odd offers and needs the building to be named', () => {
    const shift = addressShift([offer(5, false)], 0, variation);
    // One offer: w = 0.01 / (0.01 + 0.04) = 0.2 of the clipped 0.7.
    expect(shift.shift).toBeCloseTo(0.2 * 0.7, 12);
    expect(shift.buildingOffers).toBe(0);
    expect(shift.remaining).toBeCloseTo(0.04 + 0.8 * 0.01 + 0.0064, 12);
  });
});

const TODAY = '2026-11-21';
/** Street names without digits (a digit would be read as the house number): "Abstraße". */
const streetName = (i: number) =>
  `${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}straße`;
const STREETS = 60;
const BUILDINGS = 5;
const PER_BUILDING = 4;
const STREET_SD = 0.12;
const BUILDING_SD = 0.1;
const NOISE_SD = 0.05;

describe('offers in the same street and building', () => {
  let instance: DuckDBInstance;
  let db: DuckDBConnection;
  const effect = new Map<string, number>();

  beforeAll(async () => {
    // Listings without coordinates in one Vienna postcode, as the willhaben data: the postcode
    // says nothing within it, the address does.
    const random = new Random(7);
    const rows: (string | number)[][] = [];
    for (let s = 0; s < STREETS; s++) {
      const street = STREET_SD * random.normal();
      for (let b = 1; b <= BUILDINGS; b++) {
        const building = street + BUILDING_SD * random.normal();
        effect.set(`${streetName(s)}|${String(b)}`, building);
        for (let i = 0; i < PER_BUILDING; i++) {
          const area = 50 + random.int(0, 19);
          const rent = 15 * area * Math.exp(building + NOISE_SD * random.normal());
          rows.push(
            addressedRent(random, {
              id: `o-${String(s)}-${String(b)}-${String(i)}`,
              rent,
              area,
              postcode: '1100',
              street: streetName(s),
              house: String(b),
            }),
          );
          // Every building's first flat is advertised again, unchanged, in 2026: one listing.
          if (i === 0)
            rows.push([
              `${String(rows.at(-1)?.[0])}-again`,
              ...(rows.at(-1) ?? []).slice(1, 4),
              '2026-03-10',
              ...(rows.at(-1) ?? []).slice(5),
            ]);
        }
      }
    }
    const dataDir = referenceDataDir();
    await importFile(
      dataDir,
      'offers',
      writeFile(tempDir(), 'o.csv', csv(ADDRESSED_RENT_COLUMNS, rows)),
      {
        today: TODAY,
      },
    );
    const file = currentSnapshot(marketPaths(dataDir));
    if (!file) throw new Error('no snapshot');
    instance = await openDuck(file, { readOnly: true });
    db = await instance.connect();
  });
  afterAll(() => {
    db.closeSync();
    instance.closeSync();
  });

  it('measures the variance between streets and between buildings when the snapshot is built', async () => {
    const rows = await queryRows(
      db,
      `select * from ${ADDRESS_VARIANCE_TABLE} where deal_type = 'rent' order by cell_kind`,
    );
    // Each listing once: the flats advertised again do not count twice.
    expect(rows.map((r) => [r.cell_kind, Number(r.cells), Number(r.offers)])).toEqual([
      ['address', STREETS * BUILDINGS, STREETS * BUILDINGS * PER_BUILDING],
      ['street', STREETS, STREETS * BUILDINGS * PER_BUILDING],
    ]);
    const [address, street] = rows.map((r) => localVariance(momentsOfRow(r)) ?? NaN);
    // Generated with τ_s = 0.12 and τ_b = 0.10: the estimates of 60 streets are within sampling
    // error of that (the size classes and years take a little of each).
    expect(Math.sqrt(street ?? NaN)).toBeGreaterThan(0.08);
    expect(Math.sqrt(street ?? NaN)).toBeLessThan(0.16);
    expect(Math.sqrt((address ?? NaN) - (street ?? NaN))).toBeGreaterThan(0.07);
    expect(Math.sqrt((address ?? NaN) - (street ?? NaN))).toBeLessThan(0.13);
  });

  it('values a flat by its building far better than by its postcode', async () => {
    const errors = { withAddress: [] as number[], without: [] as number[] };
    for (let s = 0; s < STREETS; s += 3) {
      const b = 1 + (s % BUILDINGS);
      const truth = Math.log(15) + (effect.get(`${streetName(s)}|${String(b)}`) ?? NaN);
      const property: PropertyToValue = {
        countryCode: 'AT',
        propertyType: 'apartment',
        latitude: 48.17,
        longitude: 16.38,
        locationPrecision: 'postcode',
        postalCode: '1100',
        livingArea: 60,
      };
      const at = {
        ...property,
        street: streetName(s).replace('straße', 'str.'),
        houseNumber: String(b),
      };
      const date = '2026-10-01';
      const withAddress = await estimateDeal(db, at, 'rent', date);
      const without = await estimateDeal(db, property, 'rent', date);
      expect(withAddress.address?.buildingOffers).toBe(PER_BUILDING);
      expect(without.address).toBeUndefined();
      errors.withAddress.push(Math.abs(Math.log(withAddress.value / 60) - truth));
      errors.without.push(Math.abs(Math.log(without.value / 60) - truth));
    }
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    // The postcode alone misses each building by about τ (0.16 in log); its own offers by little.
    expect(mean(errors.without)).toBeGreaterThan(0.08);
    expect(mean(errors.withAddress)).toBeLessThan(0.5 * mean(errors.without));
  });
});
