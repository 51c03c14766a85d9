import { describe, expect, it } from 'vitest';
import { OFFER_KEY_COLUMNS, snapshotOfOffers } from '../../../test/helpers/market.js';
import { queryRows } from '../duck.js';
import { locate, snapshotCache } from '../../valuation/snapshot-cache.js';
import { indicatorsAround } from '../queries/indicators.js';

// The source gives 459 of Bratislava's postcodes one and the same centroid.
const BRATISLAVA = { latitude: 48.1504, longitude: 17.09 };

describe('a point’s postcode where many codes share its centroid', () => {
  it('is the smallest id for the import, the valuation and the area indicators alike, unless stated', async () => {
    const { db, close } = await snapshotOfOffers(
      [...OFFER_KEY_COLUMNS, 'salePrice', 'livingArea', 'latitude', 'longitude'],
      [['sk-1', 'SK', 'sale', 'apartment', '2026-01-10', 200000, 60, 48.1504, 17.09]],
      '2026-11-25',
    );
    try {
      const [shared] = await queryRows(
        db,
        `select count(*)::integer as n, min(id) as smallest from divisions
         where country_code = 'SK' and level = 100 and latitude = 48.1504 and longitude = 17.09`,
      );
      expect(shared?.n).toBeGreaterThan(100);
      const smallest = shared?.smallest;
      const [offer] = await queryRows(db, 'select division_level100 as id from offers');
      expect(offer?.id).toBe(smallest);
      const cache = await snapshotCache(db);
      expect(locate(cache, 'SK', BRATISLAVA.latitude, BRATISLAVA.longitude)?.id).toBe(smallest);
      const { area } = await indicatorsAround(db, {
        countryCode: 'SK',
        point: BRATISLAVA,
        year: 2026,
      });
      expect(area.find((a) => a.level === 100)?.id).toBe(smallest);
      // A stated postcode the data has is the property's postcode, for the valuation and the
      // area indicators alike; one the data lacks is not, and the nearest stands.
      const largest = String(
        (
          await queryRows(
            db,
            `select max(id) as id from divisions where country_code = 'SK' and level = 100
             and latitude = 48.1504 and longitude = 17.09`,
          )
        )[0]?.id,
      );
      const stated = (postcode: string) =>
        indicatorsAround(db, { countryCode: 'SK', point: BRATISLAVA, postcode, year: 2026 });
      for (const [postcode, expected] of [
        [largest, largest],
        [`${largest.slice(0, 3)} ${largest.slice(3)}`, largest],
        ['99999', smallest],
      ] as const) {
        const area100 = (await stated(postcode)).area.find((a) => a.level === 100)?.id;
        expect(area100, postcode).toBe(expected);
        expect(locate(cache, 'SK', BRATISLAVA.latitude, BRATISLAVA.longitude, postcode)?.id).toBe(
          expected,
        );
      }
    } finally {
      close();
    }
  });
});
