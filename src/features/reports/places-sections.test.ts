import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import { metersBetween } from '../../../test/helpers/haversine.js';
import { createDossier } from '../../../test/helpers/fixtures.js';
import { importRows, INDICATOR_COLUMNS, snapshotRows } from '../../../test/helpers/market.js';
import { readPdf } from '../../../test/helpers/pdf-reader.js';
import { fixedValuer } from '../../../test/helpers/valuer.js';
import { call, createWorld, type World } from '../../../test/helpers/world.js';
import { sharedData } from '../../../test/helpers/shared-data.js';
import { convertViennaPlaces } from '../../market/convert/vienna-places.js';
import { importFile } from '../../market/import/run-import.js';
import { HALF_SCORE } from '../../market/places/scores.js';
import { EXAMPLE_DOSSIER } from '../dossiers/schemas.js';
import { providerTemplateId } from '../templates/provider-templates.js';
import { LOCALES, say } from './messages.js';
import { limits } from '../../limits.js';

const { path: SOURCE, available } = sharedData('vienna-places', 'pois.csv');

const GRABEN = EXAMPLE_DOSSIER.property.location.coordinates;
const TODAY = '2026-06-15';

/** Rows of the snapshot as imported, with their distance from the dossier computed here. */
async function placesByDistance(dataDir: string, sql: string) {
  const rows = await snapshotRows(dataDir, sql);
  return rows
    .map((r) => ({
      name: String(r.name),
      meters: metersBetween(GRABEN, {
        latitude: Number(r.latitude),
        longitude: Number(r.longitude),
      }),
    }))
    .sort((a, b) => a.meters - b.meters);
}

const collapsed = (pages: string[]) => pages.join('\n').replace(/\s+/g, ' ');

describe.skipIf(!available)('report places sections on the real places of Vienna', () => {
  let world: World;
  let vienna: string;
  let graz: string;
  beforeAll(async () => {
    world = await createWorld('sqlite', {
      app: { now: () => new Date(`${TODAY}T12:00:00Z`), valueProperty: fixedValuer({}, 11000) },
    });
    const converted = path.join(tempDir(), 'places');
    await convertViennaPlaces(SOURCE, converted);
    for (const [entity, file] of [
      ['pois', 'pois.csv'],
      ['transit', 'transit.csv'],
      ['indicators', 'indicators.csv'],
    ] as const) {
      await importFile(world.config.dataDir, entity, path.join(converted, file), { strict: true });
    }
    // One city-wide value beside the districts' (the shared data has none), to be compared with.
    await importRows(world, 'indicators', INDICATOR_COLUMNS, [
      ['AT', 6, '900', 'population', 2024, 2_000_000, 'persons', 'Test row, not real data'],
    ]);
    const create = (body: object) => createDossier(world, world.memberA, body);
    vienna = await create(EXAMPLE_DOSSIER);
    // Graz: Austria, but no places data was imported there.
    graz = await create({
      ...EXAMPLE_DOSSIER,
      title: 'Flat in Graz',
      property: {
        ...EXAMPLE_DOSSIER.property,
        location: {
          address: { postCode: '8010', city: 'Graz' },
          coordinates: { latitude: 47.0707, longitude: 15.4395 },
        },
      },
    });
  });
  afterAll(() => world.close());

  const report = async (dossier: string, locale: string, date?: string) => {
    const res = await call(world.app, {
      method: 'POST',
      url: `/api/v1/dossiers/${dossier}/report`,
      token: world.memberA.token,
      payload: { templateId: providerTemplateId('AT', 'appraisal'), locale, date },
    });
    expect(res.statusCode, res.body).toBe(200);
    return readPdf(res.rawPayload);
  };

  it('shows the real stops and pharmacies near the Graben, as measured, with their sources', async () => {
    const pdf = await report(vienna, 'en');
    const text = collapsed(pdf.pages);
    const stops = await placesByDistance(
      world.config.dataDir,
      'select name, latitude, longitude from transit_stops',
    );
    const pharmacies = await placesByDistance(
      world.config.dataDir,
      "select name, latitude, longitude from pois where category = 'pharmacy'",
    );
    // The nearest stop, by name and distance (rounded up, as reports round); the stops within
    // 500 m, each name once.
    const nearestStop = stops[0];
    const stopsWithin500 = new Set(stops.filter((s) => s.meters <= 500).map((s) => s.name)).size;
    expect(text).toContain(
      `NEAREST STOP STOPS WITHIN 500 m ${String(Math.ceil(nearestStop?.meters ?? 0))} m · ${nearestStop?.name ?? ''} ${String(stopsWithin500)}`,
    );
    // The three nearest pharmacies, each with its distance in the table.
    for (const pharmacy of pharmacies.slice(0, 3)) {
      expect(text).toContain(`${pharmacy.name} Pharmacy ${String(Math.ceil(pharmacy.meters))} m`);
    }
    // The health row: counts within 500 m and 1 km, nearest, and the score by its definition.
    const within = (m: number) => pharmacies.filter((p) => p.meters <= m).length;
    const doctors = await snapshotRows(
      world.config.dataDir,
      "select count(*)::integer as n from pois where category in ('doctor', 'dentist', 'hospital')",
    );
    expect(doctors).toEqual([{ n: 0 }]);
    const w = pharmacies
      .filter((p) => p.meters <= 1000)
      .reduce((s, p) => s + 1 - p.meters / 1000, 0);
    const score = Math.round((100 * w) / (w + HALF_SCORE.health)) / 10;
    expect(text).toContain(
      `Health ${String(within(500))} ${String(within(1000))} ${String(Math.ceil(pharmacies[0]?.meters ?? 0))} m ${score.toFixed(1)}`,
    );
    // The map's legend: the nearest it draws, of all those the table counts within 1 km.
    const drawn = Math.min(limits.places.reportPlacesPerGroup, within(1000));
    expect(drawn).toBeLessThan(within(1000));
    expect(text).toContain(`Health (${String(drawn)} of ${String(within(1000))})`);
    // The district's indicators with their year: Innere Stadt's population as published.
    const published = fs
      .readFileSync(path.join(SOURCE, 'district-indicators.csv'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('1,population,'))
      ?.split(',');
    const population = new Intl.NumberFormat('en-GB').format(Number(published?.[2]));
    expect(text).toContain(
      `Population ${population} persons ${published?.[3] ?? ''} 2,000,000 (2024)`,
    );
    expect(text).toContain('Wider area: Politischer Bezirk Wien (Stadt)');
    expect(text).toContain(`Average age 47.4 years 2025 –`);
    expect(text).toContain('Gemeindebezirk Innere Stadt');
    // Every source shown is named.
    expect(text).toContain('Datenquelle: Wiener Linien (CC BY 4.0)');
    expect(text).toContain('Datenquelle: Stadt Wien – data.wien.gv.at (CC BY 4.0)');
    expect(text).toContain('© OpenStreetMap contributors (ODbL)');
    expect(text).toContain('Test row, not real data');
  });

  it('shows the indicators as of the valuation date, today, however far back the report compares', async () => {
    // Compared with 2021, the indicators are still the latest published (2025), not none: the
    // property is valued today, and so described as it is today.
    const text = collapsed((await report(vienna, 'en', '2021-06-15')).pages);
    expect(text).toContain(`Average age 47.4 years 2025 –`);
    expect(text).not.toContain(say('en', 'noData'));
  });

  it.each(LOCALES)('says there is no data where none was imported (%s)', async (locale) => {
    const pdf = await report(graz, locale);
    const text = collapsed(pdf.pages);
    const statement = say(locale, 'noData').replace(/\s+/g, ' ');
    // Amenities, socio-economics and accessibility each say it (cadastre and environment are
    // not AT sections).
    expect(text.split(statement).length - 1).toBe(3);
    expect(text).not.toContain('Datenquelle');
    // Sections with only that sentence follow on the page before instead of a page each.
    const alone = pdf.pages.filter((p) => p.replace(/\s+/g, ' ').includes(statement));
    expect(alone.length).toBeLessThan(3);
  });
});
