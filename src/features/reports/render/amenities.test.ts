import { describe, expect, it } from 'vitest';
import { syntheticReportModel } from '../../../../bench/synthetic-report.js';
import { colourBox, readPdf } from '../../../../test/helpers/pdf-reader.js';
import type { PlaceNear } from '../../../market/queries/surroundings.js';
import { POI_GROUPS } from '../../../market/places/categories.js';
import { renderReport } from './render.js';

const METERS_PER_DEGREE = 111_195;

/** A model whose amenities section shows health (nothing within 1 km) and education. */
async function remoteModel() {
  const model = await syntheticReportModel('en', 10);
  model.covers = { front: null, back: null };
  const { latitude, longitude } = model.dossier;
  const place = (kind: string, north: number, east: number, distance: number): PlaceNear => ({
    name: `Test ${kind}`,
    kind,
    coordinates: {
      latitude: latitude + north / METERS_PER_DEGREE,
      longitude: longitude + east / (METERS_PER_DEGREE * Math.cos((latitude * Math.PI) / 180)),
    },
    distance,
    source: 'Test places, not real data',
  });
  model.template.sections = [
    {
      type: 'amenities',
      enabled: true,
      configuration: Object.fromEntries(
        POI_GROUPS.map((g) => [g, g === 'health' || g === 'education']),
      ),
    },
  ];
  const none = Object.fromEntries(POI_GROUPS.map((g) => [g, null]));
  model.places = {
    scores: {
      amenities: {
        ...none,
        health: { within500m: 0, within1000m: 0, nearestDistance: 2540, score: 0.4 },
        education: { within500m: 1, within1000m: 1, nearestDistance: 300, score: 2.1 },
      } as never,
      transit: null,
    },
    amenities: [place('pharmacy', 2540, 0, 2540), place('school', 0, 300, 300)],
    stops: [],
    area: [],
    indicators: [],
  };
  return model;
}

describe('the amenities map', () => {
  it('draws a group’s nearest place beyond 1 km when it has none within, and says so', async () => {
    const bytes = await renderReport(await remoteModel());
    const text = (await readPdf(bytes)).pages.join('\n').replace(/\s+/g, ' ');
    expect(text).toContain('Health (nearest at 2.6 km)');
    expect(text).toContain('Education (1)');
    // The pharmacy, 2.5 km north, is drawn above the subject, far from its legend mark below
    // the map: the health colour (#c0392b, drawn slightly transparent on the map) spans most of the map's height, not a legend mark.
    const health = await colourBox(bytes, 2, (r, g, b) => r > 170 && g < 100 && b < 100);
    expect(health).toBeDefined();
    expect((health?.bottom ?? 0) - (health?.top ?? 0)).toBeGreaterThan(150);
  });

  it('writes scores with one decimal, rounds the nearest up from its own distance, and marks a group without data', async () => {
    const model = await remoteModel();
    const health = model.template.sections[0];
    if (health) health.configuration = { ...health.configuration, shopping: true };
    const places = model.places;
    if (places) {
      places.scores.amenities.education = {
        within500m: 1,
        within1000m: 1,
        // As the scores round it; the school's own distance is 299.2 m.
        nearestDistance: 299,
        score: 3,
      };
      const school = places.amenities[1];
      if (school) school.distance = 299.2;
    }
    const text = (await readPdf(await renderReport(model))).pages.join('\n').replace(/\s+/g, ' ');
    expect(text).toContain('Education 1 1 300 m 3.0');
    expect(text).toContain('Shopping – – – –');
    expect(text).toContain('Shopping (–)');
  });
});
