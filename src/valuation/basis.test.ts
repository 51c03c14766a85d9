import { afterAll, describe, expect, it } from 'vitest';
import { OFFER_KEY_COLUMNS, snapshotOfOffers } from '../../test/helpers/market.js';
import type { PropertyToValue } from './types.js';
import { valueProperty } from './value-property.js';

/** What a valuation says it rests on (`basis`): counted and placed as a reader would. */
const TODAY = '2026-11-21';
const HEADER = [
  ...OFFER_KEY_COLUMNS,
  'salePrice',
  'livingArea',
  'postalCode',
  'latitude',
  'longitude',
];

/** `n` flats of 60 m² sold in 2026 around a point, 40 m apart, each at its own price. */
const flats = (prefix: string, n: number, lat: number, lon: number, postcode: string) =>
  Array.from({ length: n }, (_, i) => [
    `${prefix}-${String(i)}`,
    'AT',
    'sale',
    'apartment',
    `2026-0${String(1 + (i % 9))}-10`,
    300_000 + 2_000 * i,
    60,
    postcode,
    lat + 0.00036 * (i % 3),
    lon + 0.00054 * Math.floor(i / 3),
  ]);

const flat = (at: Partial<PropertyToValue> = {}): PropertyToValue => ({
  countryCode: 'AT',
  propertyType: 'apartment',
  latitude: 48.17,
  longitude: 16.38,
  locationPrecision: 'exact',
  postalCode: '1100',
  livingArea: 60,
  ...at,
});

const closers: (() => void)[] = [];
afterAll(() => {
  for (const close of closers) close();
});

async function basisOf(rows: (string | number)[][], property = flat()) {
  const { db, close } = await snapshotOfOffers(HEADER, rows, TODAY);
  closers.push(close);
  return (await valueProperty(db, { property, dealType: 'sale', date: TODAY })).basis;
}

describe('the basis of a valuation', () => {
  it('counts the comparables within the radius searched, and how far back', async () => {
    // Eight flats within about 200 m: the 500 m search holds them all.
    expect(await basisOf(flats('near', 8, 48.1702, 16.3802, '1100'))).toEqual({
      comparables: 8,
      area: 'radius',
      radiusMeters: 500,
      months: 24,
    });
  });

  it('leaves an outlier out of the count, as out of the value', async () => {
    const rows = flats('near', 8, 48.1702, 16.3802, '1100');
    // A ninth flat sold at five times its neighbours' price.
    const outlier = ['outlier', 'AT', 'sale', 'apartment', '2026-05-10', 1_500_000, 60, '1100'];
    rows.push([...outlier, 48.1701, 16.3801]);
    expect((await basisOf(rows)).comparables).toBe(8);
  });

  it('names the radius the search had to widen to', async () => {
    // About 3.3 km north: beyond 2.5 km, within 5 km.
    expect(await basisOf(flats('far', 8, 48.2, 16.38, '1200'))).toEqual({
      comparables: 8,
      area: 'radius',
      radiusMeters: 5000,
      months: 24,
    });
  });

  it('names the postcode for a property known only by it, without a radius', async () => {
    const unplaced = flats('code', 8, 0, 0, '1100').map((r) => [...r.slice(0, -2), '', '']);
    const basis = await basisOf(unplaced, flat({ locationPrecision: 'postcode' }));
    expect(basis).toEqual({ comparables: 8, area: 'postcode', months: 24 });
  });
});
