import { afterAll, describe, expect, it } from 'vitest';
import { OFFER_KEY_COLUMNS, snapshotOfOffers } from '../../test/helpers/market.js';
import type { PropertyToValue } from './types.js';
import { estimateDeal, type DetailedEstimate } from './value-property.js';

const TODAY = '2026-11-21';
const HEADER = [...OFFER_KEY_COLUMNS, 'rentGross', 'livingArea', 'postalCode'];
const PLACED = [...HEADER, 'latitude', 'longitude'];
/** Six flats of one postcode. */
const FLATS = [50, 54, 58, 62, 66, 70].map((area, i) => [
  `flat-${String(i)}`,
  'AT',
  'rent',
  'apartment',
  `2026-0${String(1 + i)}-10`,
  Math.round(area * (14 + i / 2) * 100) / 100,
  area,
  '1100',
]);
/** A seventh flat, advertised on `date`. */
const listed = (date: string, n: number) =>
  ['again', 'AT', 'rent', 'apartment', date, 930, 60, '1100'].map((v, i) =>
    i === 0 ? `again-${String(n)}` : v,
  );
const MONTHS = ['2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08'];
/** The seventh flat listed once (in September), and eight times. */
const ONCE = [listed('2026-09-01', 8)];
const OFTEN = [...MONTHS.map((month, n) => listed(`${month}-01`, n)), ...ONCE];
/** Each flat at its own point within 300 m of the property; every copy at the same one. */
const placed = (rows: (string | number)[][]) =>
  rows.map((r) => {
    const flat = FLATS.findIndex((f) => f[0] === r[0]);
    return [...r, 48.17 + (flat + 1) * 0.0003, 16.38 + (flat + 1) * 0.0002];
  });

const property: PropertyToValue = {
  countryCode: 'AT',
  propertyType: 'apartment',
  latitude: 48.17,
  longitude: 16.38,
  locationPrecision: 'exact',
  postalCode: '1100',
  livingArea: 60,
};

const closers: (() => void)[] = [];
afterAll(() => {
  for (const close of closers) close();
});

async function valueWith(
  rows: (string | number)[][],
  header = PLACED,
  at = property,
): Promise<DetailedEstimate> {
  const { db, close } = await snapshotOfOffers(header, rows, TODAY);
  closers.push(close);
  return estimateDeal(db, at, 'rent', '2026-10-01');
}

describe('a flat advertised again', () => {
  it('is one comparable at its point, however often it was listed', async () => {
    const once = await valueWith(placed([...FLATS, ...ONCE]));
    const often = await valueWith(placed([...FLATS, ...OFTEN]));
    // Seven listings either way; counted eight times, the copies would be 14 comparables.
    expect(once.evidence.radiusMeters).not.toBeNull();
    expect(once.central.used).toBe(7);
    expect(often.central.used).toBe(7);
  });

  it('is not told from other flats alike in every figure where offers have no point', async () => {
    // Known only by their postcode (as Vienna's listings), eight offers of a 60 m² flat at 930
    // may be eight flats of a new building: all count.
    const byPostcode = { ...property, locationPrecision: 'postcode' as const };
    const often = await valueWith([...FLATS, ...OFTEN], HEADER, byPostcode);
    expect(often.evidence.radiusMeters).toBeNull();
    expect(often.central.used).toBe(14);
  });
});
