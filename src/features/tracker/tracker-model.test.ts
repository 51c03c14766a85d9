import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { demoMarket, publishCopyOfMarket } from '../../../test/helpers/market.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { createDossier } from '../../../test/helpers/fixtures.js';
import { call, createWorld, postAs, type World } from '../../../test/helpers/world.js';
import { queryOne } from '../../market/duck.js';
import type { Valuation } from '../../valuation/types.js';
import type { TrackerResponse } from './schemas.js';

// End to end with the real valuation model on generated demo data: dossier → tracker and
// property value, through HTTP, on both account backends.
const TODAY = '2026-11-21';
const PAST = '2025-11-21';
const DEMO = { offers: 40_000, projects: 200, seed: 7, today: TODAY };

describeBackends('property tracker and property value with the valuation model', (backend) => {
  let world: World;
  let dossierId: string;
  /** The dossier's property as the API takes it. */
  let property: {
    location: { coordinates: { latitude: number; longitude: number } };
    propertyType: { code: 'apartment' };
    livingArea: number;
    buildingYear: number;
    numberOfRooms: number;
  };

  beforeAll(async () => {
    world = await createWorld(backend, { app: { now: () => new Date(`${TODAY}T12:00:00Z`) } });
    // One generated market for the file; each backend's world reads a copy of it.
    publishCopyOfMarket(await demoMarket(DEMO), world.config.dataDir);
    await world.stores.market.refresh();
    // A flat like the ones most offered in the busiest Vienna district of the data.
    const row = await world.stores.market.read((db) =>
      queryOne(
        db,
        `select latitude, longitude, round(median(living_area))::integer as area from offers
          where country_code = 'AT' and deal_type = 'sale' and property_type = 'apartment'
            and division_level6 = (select division_level6 from offers where country_code = 'AT'
                                    group by 1 order by count(*) desc limit 1)
          group by latitude, longitude order by count(*) desc, latitude limit 1`,
      ),
    );
    property = {
      location: {
        coordinates: { latitude: Number(row?.latitude), longitude: Number(row?.longitude) },
      },
      propertyType: { code: 'apartment' },
      livingArea: Number(row?.area),
      buildingYear: 1990,
      numberOfRooms: 3,
    };
    dossierId = await createDossier(world, world.memberA, {
      title: 'Model check',
      dealType: 'sale',
      countryCode: 'AT',
      property,
    });
  }, 120_000);
  afterAll(() => world.close());

  const valueProperties = (payload: object) =>
    postAs(world, '/api/v1/valuation/property_value', payload);

  const checkValuation = (v: Valuation | undefined) => {
    expect(v).toBeDefined();
    if (!v) return;
    expect(['poor', 'medium', 'good']).toContain(v.confidence);
    expect(v.currency).toBe('EUR');
    expect(v.value).toBeGreaterThan(0);
    expect(v.valueRange.lower).toBeLessThanOrEqual(v.value);
    expect(v.valueRange.upper).toBeGreaterThanOrEqual(v.value);
    expect(v.salePrice).toBeGreaterThan(0);
  };

  it('values the dossier at the date and today, and the change is computed from the two', async () => {
    const res = await call(world.app, {
      method: 'POST',
      url: `/api/v1/property_tracker?access_token=${world.memberA.token}`,
      payload: { dossierId, date: PAST, countryCode: 'AT', radius: 10_000 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<TrackerResponse>();
    expect(body.valuations).toHaveLength(2);
    body.valuations.forEach(checkValuation);
    const [past, today] = body.valuations;
    // A sale dossier: the value is the sale price.
    expect(past?.value).toBe(past?.salePrice);
    const change = ((Number(today?.value) - Number(past?.value)) / Number(past?.value)) * 100;
    const rounded = (Math.sign(change) * Math.round(Math.abs(change) * 10)) / 10;
    expect(body.valuationChangePercent).toBeCloseTo(rounded, 10);
    // Demo prices per m² are in the thousands: a sanity bound, not the model's accuracy test.
    expect(Number(today?.value) / property.livingArea).toBeGreaterThan(1000);
    expect(Number(today?.value) / property.livingArea).toBeLessThan(30_000);
    expect(body.offers.totalItems).toBeGreaterThan(0);
  });

  it('property value gives the same valuations for the dossier and for the same property', async () => {
    const res = await valueProperties({
      dealType: 'rent',
      countryCode: 'AT',
      valuationDates: [PAST, TODAY],
      valuationInputs: [{ dossierId }, { property }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { valuations } = res.json<{ valuations: Valuation[][] }>();
    expect(valuations).toHaveLength(2);
    for (const perDate of valuations) {
      expect(perDate).toHaveLength(2);
      perDate.forEach(checkValuation);
      // A rent valuation: monthly rent, far below the sale value.
      for (const v of perDate) expect(v.value).toBeLessThan(v.salePrice / 50);
    }
    expect(valuations[1]).toEqual(valuations[0]);
  });

  it('refuses with 400 coordinates outside the country, rather than a 422 from the model', async () => {
    const res = await valueProperties({
      dealType: 'sale',
      countryCode: 'AT',
      valuationInputs: [
        {
          property: {
            // In Germany (near Würzburg), inside Austria's bounding box only.
            location: { coordinates: { latitude: 49.5, longitude: 10.0 } },
            propertyType: { code: 'apartment' },
            livingArea: 70,
          },
        },
      ],
    });
    const problem = expectProblem(res, 400, 'validation_failed');
    expect(problem.errors?.[0]?.path).toBe('/valuationInputs/0/property/location/coordinates');
  });
});
