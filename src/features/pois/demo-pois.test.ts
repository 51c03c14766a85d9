import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metersBetween as meters, type LatLon as Point } from '../../../test/helpers/haversine.js';
import { snapshotRows } from '../../../test/helpers/market.js';
import { call, createWorld, type World } from '../../../test/helpers/world.js';
import { COUNTRIES } from '../../market/countries.js';
import { generateDemoData } from '../../market/generate/generate.js';
import { POI_GROUPS } from '../../market/places/categories.js';
import type { PoisResponse } from './schemas.js';

describe('points of interest on the demo market', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld('sqlite');
    await generateDemoData(world.config.dataDir, { offers: 400, projects: 0, seed: 5 });
    await world.stores.market.refresh();
  });
  afterAll(() => world.close());

  const pois = async (countryCode: string, coordinates: Point, body: object = {}) => {
    const res = await call(world.app, {
      method: 'POST',
      url: '/api/v1/pois',
      token: world.memberA.token,
      payload: { countryCode, coordinates, ...body },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PoisResponse>();
  };

  it('answers for the address of a demo offer in every country, nearest first, all counted', async () => {
    const offers = await snapshotRows(
      world.config.dataDir,
      `select country_code, arg_min(latitude, id) as latitude, arg_min(longitude, id) as longitude
       from offers group by country_code order by country_code`,
    );
    expect(offers.map((o) => o.country_code)).toEqual([...COUNTRIES]);
    for (const offer of offers) {
      const country = String(offer.country_code);
      const point = { latitude: Number(offer.latitude), longitude: Number(offer.longitude) };
      const answer = await pois(country, point, { radius: 3000, limit: 100 });
      // Every place of the country within 3 km, by the reference distance.
      const near = await snapshotRows(
        world.config.dataDir,
        `select latitude, longitude from pois where country_code = '${country}'
         and abs(latitude - ${String(point.latitude)}) < 0.03 and abs(longitude - ${String(point.longitude)}) < 0.05`,
      );
      const expected = near.filter(
        (p) =>
          meters(point, { latitude: Number(p.latitude), longitude: Number(p.longitude) }) <= 3000,
      ).length;
      expect(expected, country).toBeGreaterThan(0);
      expect(answer.totalItems, country).toBe(expected);
      const distances = answer.items.map((p) => p.distance);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      expect(answer.items[0]?.name).toMatch(/^Demo /);
    }
  });

  it('finds every group within a kilometre of the centre of Wien', async () => {
    for (const group of POI_GROUPS) {
      const answer = await pois(
        'AT',
        { latitude: 48.2085, longitude: 16.3721 },
        { category: [group] },
      );
      expect(answer.totalItems, group).toBeGreaterThan(0);
      expect(answer.items.every((p) => p.category === group && p.distance <= 1000)).toBe(true);
    }
  });
});
