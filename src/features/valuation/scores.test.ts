import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metersBetween, type LatLon } from '../../../test/helpers/haversine.js';
import { importRows } from '../../../test/helpers/market.js';
import { fixedValuer } from '../../../test/helpers/valuer.js';
import { createWorld, expectStatus, postAs, type World } from '../../../test/helpers/world.js';
import type { LocationScoresSchema } from '../places/scores-schema.js';
import { EXAMPLE_DOSSIER } from '../dossiers/schemas.js';

const CENTER = { latitude: 48.2087, longitude: 16.3695 };
const at = (dLat: number, dLon: number): LatLon => ({
  latitude: CENTER.latitude + dLat,
  longitude: CENTER.longitude + dLon,
});

// Health and catering near; education only 3.3 km away (data, but no place within 1 km); no
// leisure at all; the one market 6 km away, beyond the 5 km the data must cover.
const POIS: [string, string, LatLon][] = [
  ['h1', 'pharmacy', at(0.002, 0.0005)],
  ['h2', 'pharmacy', at(-0.0041, 0.0032)],
  ['h3', 'doctor', at(0.0007, -0.0121)],
  ['c1', 'cafe', at(0.0003, 0.0004)],
  ['c2', 'restaurant', at(-0.0012, -0.0021)],
  ['c3', 'bar', at(0.0062, 0.0071)],
  ['c4', 'restaurant', at(0.0108, 0.0)],
  ['e1', 'school', at(-0.03, 0.0)],
  ['s1', 'market', at(0.054, 0.0)],
];
// Two platforms of one stop, two other stops, one beyond 500 m.
const STOPS: [string, string, LatLon][] = [
  ['t1', 'Stephansplatz', at(0.0011, 0.0009)],
  ['t2', 'Stephansplatz', at(0.0013, 0.0012)],
  ['t3', 'Herrengasse', at(-0.0025, -0.0019)],
  ['t4', 'Schottentor', at(0.0061, -0.0035)],
];

/** The definition (README "Location scores"), computed here from the points written above. */
function expectedGroup(points: LatLon[], half: number) {
  const d = points.map((p) => metersBetween(CENTER, p));
  const w = d.filter((m) => m <= 1000).reduce((s, m) => s + (1 - m / 1000), 0);
  return {
    within500m: d.filter((m) => m <= 500).length,
    within1000m: d.filter((m) => m <= 1000).length,
    nearestDistance: Math.round(Math.min(...d)),
    score: Math.round((100 * w) / (w + half)) / 10,
  };
}
const of = (ids: string[]) => POIS.filter(([id]) => ids.includes(id)).map(([, , p]) => p);

describe('returnScores: location scores on valuations', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld('sqlite', { app: { valueProperty: fixedValuer() } });
    const points = (rows: [string, string, LatLon][]) =>
      rows.map(([id, text, p]) => [id, 'AT', text, p.latitude, p.longitude]);
    const columns = (text: string) => ['id', 'countryCode', text, 'latitude', 'longitude'];
    await importRows(world, 'pois', columns('category'), points(POIS));
    await importRows(world, 'transit', columns('name'), points(STOPS));
  });
  afterAll(() => world.close());

  const value = async (body: object) =>
    expectStatus(
      await postAs(world, '/api/v1/valuation/property_value', {
        dealType: 'sale',
        countryCode: 'AT',
        valuationInputs: [{ property: EXAMPLE_DOSSIER.property }],
        ...body,
      }),
    ).json<{ valuations: { value: number; scores?: LocationScoresSchema }[][] }>();

  it('measures each group and transit as defined, against an independent haversine', async () => {
    const answer = await value({
      returnScores: true,
      valuationDates: ['2026-01-01', '2026-02-01'],
    });
    const [first, second] = answer.valuations[0] ?? [];
    expect(first?.value).toBe(72 * 5000);
    const scores = first?.scores;
    expect(second?.scores).toEqual(scores);
    expect(scores?.amenities).toEqual({
      health: expectedGroup(of(['h1', 'h2', 'h3']), 0.5),
      catering: expectedGroup(of(['c1', 'c2', 'c3', 'c4']), 3),
      // Data, but nothing within 1 km: counts and score 0, the distance as measured.
      education: { ...expectedGroup(of(['e1']), 3.5), within1000m: 0, score: 0 },
      // Nothing within 5 km: no data, not zero.
      leisure: null,
      shopping: null,
    });
    // The figures written out: a pharmacy 225 m away, the other at 514 m, the doctor at 900 m.
    expect(scores?.amenities.health).toMatchObject({
      within500m: 1,
      within1000m: 3,
      nearestDistance: 225,
    });
    expect(scores?.amenities.education?.nearestDistance).toBe(3336);
    expect(scores?.transit).toEqual({
      nearestStopDistance: Math.round(metersBetween(CENTER, at(0.0011, 0.0009))),
      // Stephansplatz (two platforms) and Herrengasse; Schottentor is farther.
      stopsWithin500m: 2,
    });
  });

  it('leaves scores out unless asked, and says no data where the snapshot has no places', async () => {
    const plain = await value({});
    expect(plain.valuations[0]?.[0]).not.toHaveProperty('scores');
    const elsewhere = await value({
      returnScores: true,
      valuationInputs: [
        {
          property: {
            ...EXAMPLE_DOSSIER.property,
            location: {
              address: { postCode: '8010', city: 'Graz' },
              coordinates: { latitude: 47.0707, longitude: 15.4395 },
            },
          },
        },
      ],
    });
    expect(elsewhere.valuations[0]?.[0]?.scores).toEqual({
      amenities: { health: null, education: null, leisure: null, catering: null, shopping: null },
      transit: null,
    });
  });
});
