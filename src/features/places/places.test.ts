import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDossier } from '../../../test/helpers/fixtures.js';
import { importRows, INDICATOR_COLUMNS } from '../../../test/helpers/market.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import {
  createWorld,
  expectStatus,
  postAs,
  type Member,
  type World,
} from '../../../test/helpers/world.js';
import { EXAMPLE_DOSSIER } from '../dossiers/schemas.js';
import type { IndicatorsResponse } from './schemas.js';

const CODE = 'validation_failed';
const SOURCE = 'Datenquelle: Stadt Wien – data.wien.gv.at (CC BY 4.0)';
// Innere Stadt (level 8, 901) in two years and one later; Vienna (level 6, 900) in 2025; one
// indicator of the postcode 1010 alone.
const ROWS = [
  ['AT', 8, '901', 'population', 2024, 16_120, 'persons', SOURCE],
  ['AT', 8, '901', 'population', 2025, 16_281, 'persons', SOURCE],
  ['AT', 8, '901', 'population', 2027, 99_999, 'persons', SOURCE],
  ['AT', 6, '900', 'population', 2025, 2_005_760, 'persons', 'Statistik Austria'],
  ['AT', 8, '901', 'avg_age', 2025, 47.4, 'years', SOURCE],
  ['AT', 100, '1010', 'noise_index', 2023, 61, '', ''],
];

describe('POST /api/v1/indicators', () => {
  let world: World;
  let dossierId: string;
  beforeAll(async () => {
    world = await createWorld('sqlite', { app: { now: () => new Date('2026-06-15T12:00:00Z') } });
    await importRows(world, 'indicators', INDICATOR_COLUMNS, ROWS);
    dossierId = await createDossier(world);
  });
  afterAll(() => world.close());

  const post = (payload: object, who: Member = world.memberA) =>
    postAs(world, '/api/v1/indicators', { countryCode: 'AT', ...payload }, who);
  const answer = async (payload: object) =>
    expectStatus(await post(payload)).json<IndicatorsResponse>();

  it('names the divisions, level, year and source of each value, finest division first', async () => {
    const found = await answer({ coordinates: EXAMPLE_DOSSIER.property.location.coordinates });
    expect(found.area).toEqual([
      { level: 100, id: '1010', name: 'Wien, Innere Stadt' },
      { level: 8, id: '901', name: 'Gemeindebezirk Innere Stadt' },
      { level: 6, id: '900', name: 'Politischer Bezirk Wien (Stadt)' },
    ]);
    const district = { level: 8, divisionId: '901', divisionName: 'Gemeindebezirk Innere Stadt' };
    expect(found.items).toEqual([
      {
        indicator: 'avg_age',
        group: 'demographics',
        value: 47.4,
        unit: 'years',
        year: 2025,
        ...district,
        source: SOURCE,
        wider: null,
      },
      {
        indicator: 'noise_index',
        group: null,
        value: 61,
        unit: null,
        year: 2023,
        level: 100,
        divisionId: '1010',
        divisionName: 'Wien, Innere Stadt',
        source: null,
        wider: null,
      },
      {
        // The latest year up to this one (2027 is not yet), beside the city's.
        indicator: 'population',
        group: 'demographics',
        value: 16_281,
        unit: 'persons',
        year: 2025,
        ...district,
        source: SOURCE,
        wider: {
          value: 2_005_760,
          unit: 'persons',
          year: 2025,
          level: 6,
          divisionId: '900',
          divisionName: 'Politischer Bezirk Wien (Stadt)',
          source: 'Statistik Austria',
        },
      },
    ]);
  });

  it('takes a dossier and a year; the city has no value that early', async () => {
    const found = await answer({ dossierId, year: 2024 });
    expect(found.items.map((i) => [i.indicator, i.value, i.year, i.wider])).toEqual([
      ['noise_index', 61, 2023, null],
      ['population', 16_120, 2024, null],
    ]);
  });

  it('answers no items where nothing was imported', async () => {
    const found = await answer({ coordinates: { latitude: 47.0707, longitude: 15.4395 } });
    expect(found.area.map((d) => d.level)).toEqual([100, 8, 6]);
    expect(found.items).toEqual([]);
  });

  it('refuses both or neither of coordinates and dossierId, another country, a foreign dossier', async () => {
    const coordinates = EXAMPLE_DOSSIER.property.location.coordinates;
    expect(expectProblem(await post({ coordinates, dossierId }), 400, CODE).detail).toBe(
      'body must have exactly one of coordinates or dossierId',
    );
    expectProblem(await post({}), 400, CODE);
    expect(expectProblem(await post({ dossierId, countryCode: 'DE' }), 400, CODE).detail).toBe(
      'dossierId is a dossier in AT, not DE',
    );
    expectProblem(await post({ dossierId }, world.memberB), 404, 'not_found');
    // A point abroad or at sea would get the country's nearest postcode, far away.
    for (const far of [
      { latitude: -90, longitude: -180 },
      { latitude: 52.52, longitude: 13.405 }, // Berlin
    ]) {
      const problem = expectProblem(await post({ coordinates: far }), 400, CODE);
      expect(problem.errors?.[0]).toEqual({
        path: '/coordinates',
        message: 'lie outside AT: no postcode of AT is within 30 km',
      });
    }
  });
});
