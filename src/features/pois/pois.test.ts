import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metersBetween as meters } from '../../../test/helpers/haversine.js';
import { importRows } from '../../../test/helpers/market.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { createWorld, expectStatus, postAs, type World } from '../../../test/helpers/world.js';
import type { PoisResponse } from './schemas.js';

const CENTER = { latitude: 48.2087, longitude: 16.3695 };

// Points north of the center at growing distances (0.001° latitude ≈ 111 m).
const POINTS = [
  ['k1', 'kindergarten', 'Kindergarten A', 0.001],
  ['c1', 'cafe', 'Café B', 0.002],
  ['p1', 'pharmacy', 'Apotheke C', 0.003],
  ['k2', 'kindergarten', null, 0.004],
  ['s1', 'school', 'Schule D', 0.02],
] as const;
const OSM = '© OpenStreetMap contributors (ODbL)';

describe('points of interest', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld('sqlite');
    await importRows(
      world,
      'pois',
      ['id', 'countryCode', 'category', 'name', 'latitude', 'longitude', 'source'],
      POINTS.map(([id, category, name, dLat]) => [
        id,
        'AT',
        category,
        name,
        CENTER.latitude + dLat,
        CENTER.longitude,
        id === 'k1' ? OSM : null,
      ]),
    );
  });
  afterAll(() => world.close());

  const pois = async (body: object) =>
    expectStatus(
      await postAs(world, '/api/v1/pois', { coordinates: CENTER, countryCode: 'AT', ...body }),
    ).json<PoisResponse>();

  it('answers the nearest first within the radius, in the original shape, distances as measured', async () => {
    const answer = await pois({ radius: 1000 });
    expect(answer.totalItems).toBe(4);
    expect(answer.items.map((p) => p.name ?? null)).toEqual([
      'Kindergarten A',
      'Café B',
      'Apotheke C',
      null,
    ]);
    expect(answer.items[0]).toEqual({
      category: 'education',
      subcategory: 'kindergarten',
      name: 'Kindergarten A',
      distance: Math.round(meters(CENTER, { ...CENTER, latitude: CENTER.latitude + 0.001 })),
      // The attribution its licence asks for, where the data names one.
      source: OSM,
      location: { coordinates: { latitude: CENTER.latitude + 0.001, longitude: CENTER.longitude } },
    });
    expect(answer.items[1]).not.toHaveProperty('source');
    // Without a radius: 1,000 m. The school 2.2 km away comes with a wider one.
    expect((await pois({})).totalItems).toBe(4);
    expect((await pois({ radius: 3000 })).totalItems).toBe(5);
    // A `language` in the body (the PHP client's) changes nothing.
    expect(await pois({ radius: 1000, language: 'de' })).toEqual(answer);
  });

  it('filters by group and kind, each narrowing the other; names without data match nothing', async () => {
    const names = async (body: object) => (await pois(body)).items.map((p) => p.subcategory);
    expect(await names({ category: ['education'] })).toEqual(['kindergarten', 'kindergarten']);
    expect(await names({ category: ['education', 'health'], radius: 3000 })).toEqual([
      'kindergarten',
      'pharmacy',
      'kindergarten',
      'school',
    ]);
    expect(await names({ category: ['education'], subcategory: ['kindergarten', 'cafe'] })).toEqual(
      ['kindergarten', 'kindergarten'],
    );
    expect(await pois({ category: ['public_transport'] })).toEqual({ items: [], totalItems: 0 });
  });

  it('pages by offset and limit, counting all', async () => {
    const first = await pois({ limit: 2 });
    const second = await pois({ limit: 2, offset: 2 });
    const past = await pois({ limit: 2, offset: 10 });
    expect(first.items.map((p) => p.name)).toEqual(['Kindergarten A', 'Café B']);
    expect(second.items.map((p) => p.subcategory)).toEqual(['pharmacy', 'kindergarten']);
    expect(past).toEqual({ items: [], totalItems: 4 });
    expect([first.totalItems, second.totalItems]).toEqual([4, 4]);
  });

  it('an area without places data is an empty page', async () => {
    expect(
      await pois({ countryCode: 'DE', coordinates: { latitude: 52.52, longitude: 13.4 } }),
    ).toEqual({ items: [], totalItems: 0 });
  });

  it('a point outside the country is a 400, not an area without places', async () => {
    for (const category of [undefined, ['nothing']]) {
      const res = await postAs(world, '/api/v1/pois', {
        coordinates: CENTER,
        countryCode: 'DE',
        ...(category ? { category } : {}),
      });
      const problem = expectProblem(res, 400, 'validation_failed');
      expect(JSON.stringify(problem)).toContain('/coordinates');
      expect(JSON.stringify(problem)).toContain('outside DE');
    }
  });
});
