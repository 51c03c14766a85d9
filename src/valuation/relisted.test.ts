import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/backends.js';
import { csv, OFFER_KEY_COLUMNS, referenceDataDir, writeFile } from '../../test/helpers/market.js';
import { openDuck } from '../market/duck.js';
import { importFile } from '../market/import/run-import.js';
import { currentSnapshot, marketPaths } from '../market/snapshots.js';
import type { PropertyToValue } from './types.js';
import { estimateDeal, type DetailedEstimate } from './value-property.js';

const TODAY = '2026-11-21';
const HEADER = [...OFFER_KEY_COLUMNS, 'rentGross', 'livingArea', 'postalCode'];
/** Six flats of one postcode, listings without coordinates as Vienna's. */
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

const property: PropertyToValue = {
  countryCode: 'AT',
  propertyType: 'apartment',
  latitude: 48.17,
  longitude: 16.38,
  locationPrecision: 'postcode',
  postalCode: '1100',
  livingArea: 60,
};

const closers: (() => void)[] = [];
afterAll(() => {
  for (const close of closers) close();
});

async function valueWith(rows: (string | number)[][]): Promise<DetailedEstimate> {
  const dataDir = referenceDataDir();
  await importFile(dataDir, 'offers', writeFile(tempDir(), 'o.csv', csv(HEADER, rows)), {
    today: TODAY,
  });
  const file = currentSnapshot(marketPaths(dataDir));
  if (!file) throw new Error('no snapshot');
  const instance = await openDuck(file, { readOnly: true });
  const db = await instance.connect();
  closers.push(() => {
    db.closeSync();
    instance.closeSync();
  });
  return estimateDeal(db, property, 'rent', '2026-10-01');
}

describe('a flat advertised again', () => {
  it('is one comparable, however often it was listed', async () => {
    const once = await valueWith([...FLATS, listed('2026-09-01', 8)]);
    const dates = ['2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08'];
    const often = await valueWith([
      ...FLATS,
      ...dates.map((month, n) => listed(`${month}-01`, n)),
      listed('2026-09-01', 8),
    ]);
    // Seven listings either way; counted eight times, the copies would be 14 comparables.
    expect(once.central.used).toBe(7);
    expect(often.central.used).toBe(7);
    expect(often.evidence.comparables).toBe(once.evidence.comparables);
  });
});
