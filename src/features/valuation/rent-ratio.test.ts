import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRows, OFFER_KEY_COLUMNS } from '../../../test/helpers/market.js';
import { createWorld, type World } from '../../../test/helpers/world.js';
import { limits } from '../../limits.js';
import { netRentRatio, withRents } from './rent-ratio.js';

// Vienna 1010 (level-6 region 9) has 30 rent offers stating both rents, at 75 % net; Graz 8010
// has 10 at 90 %, too few for its region; Germany has none.
/** A May 2026 rent offer of a 60 m² flat, 10 days on the market. */
const rent = (id: string, gross: number, net: number, postalCode: string) => [
  id,
  'AT',
  'rent',
  'apartment',
  '2026-05-01',
  gross,
  net,
  60,
  10,
  postalCode,
];
const offers = [
  ...Array.from({ length: 30 }, (_, i) =>
    rent(`w${String(i)}`, 1000 + i, (1000 + i) * 0.75, '1010'),
  ),
  ...Array.from({ length: 10 }, (_, i) => rent(`g${String(i)}`, 800, 720, '8010')),
  // Swapped at the source (net above gross): left out.
  rent('x', 500, 900, '1010'),
];

describe('net/gross rent ratio', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld('sqlite');
    const header = [
      ...OFFER_KEY_COLUMNS,
      'rentGross',
      'rentNet',
      'livingArea',
      'daysOnMarket',
      'postalCode',
    ];
    await importRows(world, 'offers', header, offers, '2026-06-15');
  });
  afterAll(() => world.close());

  it('is measured in the region, else the country, else the default', async () => {
    const [vienna, graz, germany] = await world.stores.market.read(async (db) => [
      await netRentRatio(db, 'AT', '1010'),
      await netRentRatio(db, 'AT', '8010'),
      await netRentRatio(db, 'DE', '10115'),
    ]);
    expect(vienna).toEqual({ ratio: 0.75, source: 'region' });
    // The country's 40 offers: 30 at 0.75 and 10 at 0.9, median 0.75.
    expect(graz).toEqual({ ratio: 0.75, source: 'country' });
    expect(germany).toEqual({ ratio: limits.valuation.defaultNetRentRatio, source: 'default' });
  });

  it('is kept per snapshot: an import that adds offers measures it anew', async () => {
    const graz = () => world.stores.market.read((db) => netRentRatio(db, 'AT', '8010'));
    expect(await graz()).toEqual({ ratio: 0.75, source: 'country' });
    expect(await graz()).toEqual({ ratio: 0.75, source: 'country' });
    // 20 more in Graz at 90 %: 30 there now, enough for its region.
    await importRows(
      world,
      'offers',
      [...OFFER_KEY_COLUMNS, 'rentGross', 'rentNet', 'livingArea', 'daysOnMarket', 'postalCode'],
      Array.from({ length: 20 }, (_, i) => rent(`h${String(i)}`, 800, 720, '8010')),
      '2026-06-15',
    );
    expect(await graz()).toEqual({ ratio: 0.9, source: 'region' });
  });

  it('gives gross and net rents beside the value, in whole units', () => {
    const rent = withRents(
      {
        confidence: 'medium',
        basis: { comparables: 12, area: 'postcode', months: 24 },
        coordinates: { latitude: 0, longitude: 0 },
        currency: 'EUR',
        value: 1001,
        valueRange: { lower: 901, upper: 1101 },
        salePrice: 300000,
        salePriceRange: { lower: 270000, upper: 330000 },
      },
      0.8,
    );
    expect(rent).toMatchObject({
      rentGross: 1001,
      rentGrossRange: { lower: 901, upper: 1101 },
      rentNet: 801,
      rentNetRange: { lower: 721, upper: 881 },
    });
  });
});
