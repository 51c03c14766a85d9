import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedValuer } from '../../test/helpers/valuer.js';
import { call, createWorld, type World } from '../../test/helpers/world.js';
import { EXAMPLE_DOSSIER } from '../features/dossiers/schemas.js';
import { CostlyWork } from './costly-work.js';

/*
 * Every request that reads the market data runs its queries through CostlyWork.queries, which
 * holds the deadline (limits.work.queryDeadlineMs): the routes are checked by the kind each
 * reports, one report per run of queries.
 */
describe('market queries under the deadline', () => {
  let world: World;
  const costlyWork = new CostlyWork();
  const seen: string[] = [];
  beforeAll(async () => {
    costlyWork.onQueries = (kind, _seconds, outcome) => seen.push(`${kind} ${outcome}`);
    world = await createWorld('sqlite', {
      app: { costlyWork, valueProperty: fixedValuer({}, 5000) },
    });
  });
  afterAll(() => world.close());

  const post = async (url: string, payload: object) => {
    seen.length = 0;
    const res = await call(world.app, { method: 'POST', url, token: world.memberA.token, payload });
    expect(res.statusCode, res.body).toBe(200);
    return [...seen];
  };

  it('holds for the light valuation and the points of interest as for the full valuation', async () => {
    const property = { ...EXAMPLE_DOSSIER.property, livingArea: 50 };
    expect(
      await post('/api/v1/valuation/property_value', {
        dealType: 'sale',
        countryCode: 'AT',
        valuationInputs: [{ property }],
      }),
      // Its properties are placed and checked first, before its turn; then they are valued.
    ).toEqual(['valuation done', 'valuation done']);
    expect(
      await post('/api/v1/valuation/property_value_light', {
        dealType: 'sale',
        countryCode: 'AT',
        property: {
          location: property.location,
          propertyType: property.propertyType,
          livingArea: property.livingArea,
        },
      }),
    ).toEqual(['valuation done']);
    expect(
      await post('/api/v1/pois', {
        countryCode: 'AT',
        coordinates: property.location.coordinates,
      }),
    ).toEqual(['places done']);
  });
});
