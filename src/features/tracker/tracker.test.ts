import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { importRows, OFFER_KEY_COLUMNS, PROJECT_COLUMNS } from '../../../test/helpers/market.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { fixedValuer } from '../../../test/helpers/valuer.js';
import { call, createWorld, type Member, type World } from '../../../test/helpers/world.js';
import { createDossier } from '../../../test/helpers/fixtures.js';
import type { Problem } from '../../http/problem.js';
import { limits } from '../../limits.js';
import { EXAMPLE_DOSSIER } from '../dossiers/schemas.js';
import { offerPrices, type OfferSearch } from '../../market/queries/offers.js';
import type { TrackerResponse } from './schemas.js';

// The dossier sits on Vienna 1010's centroid; offers and projects are placed due north of it,
// so each distance is R·Δφ: 0.0001° = 11.1195 m (R = 6371008.8 m).
const LAT = 48.2077;
const LON = 16.3705;
const north = (degrees: number) => Number((LAT + degrees).toFixed(7));
const TODAY = '2026-06-15';
const DATE = '2025-10-01';

const OFFER_HEADER = [
  ...OFFER_KEY_COLUMNS,
  'salePrice',
  'rentGross',
  'livingArea',
  'daysOnMarket',
  'latitude',
  'longitude',
  'postalCode',
];
type Cell = string | number | null;
const offer = (
  id: string,
  start: string,
  dLat: number,
  price: number,
  area: number,
  over: { kind?: string; deal?: string; postcode?: string; lon?: number } = {},
): Cell[] => [
  id,
  'AT',
  over.deal ?? 'sale',
  over.kind ?? 'apartment',
  start,
  over.deal === 'rent' ? null : price,
  over.deal === 'rent' ? price : null,
  area,
  10,
  north(dLat),
  over.lon ?? LON,
  over.postcode ?? '1010',
];

const OFFERS: Cell[][] = [
  offer('o1', '2026-05-01', 0.001, 400000, 80), // 111 m, 5000/m²
  offer('o2', '2026-06-01', 0.001, 420000, 70), // 111 m, newer than o1, 6000/m²
  offer('o3', '2025-12-01', 0.0005, 300000, 100), // 56 m, 3000/m²
  offer('o4', '2026-01-10', 0.003, 450000, 90), // 334 m, 5000/m²
  offer('o5', '2026-02-01', 0.0002, 900000, 150, { kind: 'house' }),
  offer('o6', '2026-02-01', 0.0002, 1500, 80, { deal: 'rent' }),
  offer('o7', '2024-01-01', 0, 100000, 80, { lon: 17.3705 }), // the country's first offer, far east
  offer('o8', '2025-09-15', 0.0002, 350000, 70), // 22 m, before DATE, 5000/m²
  offer('o9', '2026-02-01', 0.01, 600000, 50), // 1112 m, still postcode 1010, too small
  offer('o10', '2026-03-01', 0.0003, 200000, 40, { postcode: '1020' }), // 33 m, other postcode
];

// Far from the rest (Graz): 510 offers and 505 projects, for the caps.
const GRAZ = { latitude: 47.07, longitude: 15.44 };
const MANY = 510;
for (let i = 0; i < MANY; i++) {
  OFFERS.push([
    `g${String(i)}`,
    'AT',
    'sale',
    'apartment',
    '2026-01-01',
    300000,
    null,
    60,
    5,
    Number((GRAZ.latitude + (i + 1) * 0.00001).toFixed(7)),
    GRAZ.longitude,
    '8010',
  ]);
}

const PROJECTS: Cell[][] = [
  [
    'AT',
    'p1',
    'Graben Lofts',
    north(0.001),
    LON,
    '1010',
    'planned',
    12,
    2026,
    2028,
    'true',
    'false',
  ],
  [
    'AT',
    'p2',
    'Corner House',
    north(0.0001),
    LON,
    null,
    'completed',
    null,
    2019,
    2021,
    'true',
    'true',
  ],
  [
    'AT',
    'p3',
    'Far Tower',
    north(0.003),
    LON,
    '1010',
    'under_construction',
    80,
    2024,
    2027,
    'false',
    'true',
  ],
];
for (let i = 0; i < 505; i++) {
  PROJECTS.push([
    'AT',
    `gp${String(i)}`,
    `Graz ${String(i)}`,
    Number((GRAZ.latitude + (i + 1) * 0.00001).toFixed(7)),
    GRAZ.longitude,
    '8010',
    'planned',
    1,
    null,
    null,
    'true',
    'false',
  ]);
}

const meters = (degrees: number) => Math.round((6_371_008.8 * degrees * Math.PI) / 180);

function dossierAt(location: object, livingArea = 80): Record<string, unknown> {
  return {
    ...EXAMPLE_DOSSIER,
    property: { propertyType: { code: 'apartment' }, livingArea, location },
  };
}

describeBackends('POST /api/v1/property_tracker', (backend) => {
  let world: World;
  const valuer = fixedValuer({ [DATE]: 5000, [TODAY]: 6078.5 });
  let vienna: string;
  let graz: string;
  let postcodeOnly: string;
  beforeAll(async () => {
    world = await createWorld(backend, {
      app: { now: () => new Date(`${TODAY}T12:00:00Z`), valueProperty: valuer },
    });
    await importRows(world, 'offers', OFFER_HEADER, OFFERS, TODAY);
    await importRows(world, 'projects', PROJECT_COLUMNS, PROJECTS, TODAY);
    const create = (body: object) => createDossier(world, world.memberA, body);
    vienna = await create(
      dossierAt({
        address: { postCode: '1010' },
        coordinates: { latitude: LAT, longitude: LON },
      }),
    );
    graz = await create(dossierAt({ coordinates: GRAZ }, 60));
    postcodeOnly = await create(dossierAt({ address: { postCode: '1010' } }));
  });
  afterAll(() => world.close());

  const track = (payload: object, who: Member = world.memberA) =>
    call(world.app, { method: 'POST', url: '/api/v1/property_tracker', token: who.token, payload });
  const tracked = async (payload: object) => {
    const res = await track({ countryCode: 'AT', date: DATE, ...payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TrackerResponse>();
  };

  it('lists offers within the radius, nearest first then newest, with exact fields', async () => {
    const body = await tracked({ dossierId: vienna });
    expect(body.offers.totalItems).toBe(4);
    expect(body.offers.items.map((o) => [o.id, o.distance])).toEqual([
      ['o10', meters(0.0003)],
      ['o3', meters(0.0005)],
      ['o2', meters(0.001)],
      ['o1', meters(0.001)],
    ]);
    expect(meters(0.0003)).toBe(33);
    expect(body.offers.items[1]).toEqual({
      id: 'o3',
      dealType: 'sale',
      propertyType: 'apartment',
      coordinates: { latitude: north(0.0005), longitude: LON },
      postalCode: '1010',
      distance: 56,
      startDate: '2025-12-01',
      endDate: null,
      isActive: true,
      isNew: null,
      isPrivate: null,
      price: 300000,
      pricePerSquareMeter: 3000,
      currency: 'EUR',
      livingArea: 100,
      numberOfRooms: null,
      buildingYear: null,
      daysOnMarket: 10,
    });
  });

  it('computes both trends over similar offers in the same area', async () => {
    const body = await tracked({ dossierId: vienna });
    expect(body.trends).toEqual([
      // 2025-07-01..2025-12-31: o8 (5000/m²) and o3 (3000/m²).
      {
        dateRange: { min: '2025-07-01T00:00:00.000Z', max: '2025-12-31T23:59:59.999Z' },
        value: 4000,
        count: 2,
      },
      // 2025-12-16..2026-06-15: o1 (5000) and o2 (6000); o10 is too small.
      {
        dateRange: { min: '2025-12-16T00:00:00.000Z', max: '2026-06-15T23:59:59.999Z' },
        value: 5500,
        count: 2,
      },
    ]);
  });

  it('with usePostalCode, takes the postcode instead of the radius for offers and trends', async () => {
    const body = await tracked({ dossierId: vienna, usePostalCode: true, radius: 200 });
    expect(body.offers.items.map((o) => o.id)).toEqual(['o3', 'o2', 'o1', 'o4', 'o9']);
    expect(body.offers.totalItems).toBe(5);
    expect(body.offers.items.at(-1)?.distance).toBe(meters(0.01));
    expect(body.trends[1]).toMatchObject({ count: 3, value: (5000 + 6000 + 5000) / 3 });
    // Building projects keep to the radius.
    expect(body.building_projects.items.map((p) => p.id)).toEqual(['p2', 'p1']);
  });

  it('lists building projects within the radius, nearest first', async () => {
    const body = await tracked({ dossierId: vienna, radius: 400 });
    expect(body.building_projects.totalItems).toBe(3);
    expect(body.building_projects.items).toEqual([
      {
        id: 'p2',
        name: 'Corner House',
        coordinates: { latitude: north(0.0001), longitude: LON },
        postalCode: null,
        distance: meters(0.0001),
        status: 'completed',
        numberOfUnits: null,
        constructionStartYear: 2019,
        completionYear: 2021,
        isResidential: true,
        isCommercial: true,
      },
      expect.objectContaining({ id: 'p1', distance: 111 }),
      expect.objectContaining({ id: 'p3', distance: 334, status: 'under_construction' }),
    ]);
    expect(body.offers.items.map((o) => o.id)).toEqual(['o10', 'o3', 'o2', 'o1', 'o4']);
  });

  it('caps offers and projects at 500 and counts them all', async () => {
    const body = await tracked({ dossierId: graz, radius: 10000 });
    expect(body.offers.totalItems).toBe(MANY);
    expect(body.offers.items).toHaveLength(500);
    expect(body.offers.items[0]?.id).toBe('g0');
    expect(body.offers.items[499]?.id).toBe('g499');
    expect(body.building_projects.totalItems).toBe(505);
    expect(body.building_projects.items).toHaveLength(500);
    expect(body.building_projects.items.at(-1)?.id).toBe('gp499');
  });

  it('gives the prices of every offer it counts, beyond the 500 it lists', async () => {
    const pricesOf = (search: OfferSearch) =>
      world.stores.market.read((db) => offerPrices(db, search));
    const base = {
      countryCode: 'AT' as const,
      dealType: 'sale' as const,
      propertyType: 'apartment' as const,
      from: DATE,
      to: TODAY,
    };
    const graz = await pricesOf({
      ...base,
      area: { kind: 'radius', point: GRAZ, radius: 10000 },
    });
    expect(graz).toHaveLength(MANY);
    expect(new Set(graz.map((o) => o.pricePerSquareMeter))).toEqual(new Set([5000]));
    // Around the Vienna dossier, 200 m: o3, o10, o1, o2 by start date (o8 is before the date,
    // o4 farther, o5 a house, o6 a rent).
    const vienna = await pricesOf({
      ...base,
      area: { kind: 'radius', point: { latitude: LAT, longitude: LON }, radius: 200 },
    });
    expect(vienna).toEqual([
      { startDate: '2025-12-01', pricePerSquareMeter: 3000 },
      { startDate: '2026-03-01', pricePerSquareMeter: 5000 },
      { startDate: '2026-05-01', pricePerSquareMeter: 5000 },
      { startDate: '2026-06-01', pricePerSquareMeter: 6000 },
    ]);
  });

  it('leaves the trend value out when no offer counts', async () => {
    const body = await tracked({ dossierId: vienna, radius: 1 });
    expect(body.offers).toEqual({ items: [], totalItems: 0 });
    expect(body.building_projects).toEqual({ items: [], totalItems: 0 });
    expect(body.trends.map((t) => t.count)).toEqual([0, 0]);
    for (const trend of body.trends) expect(trend).not.toHaveProperty('value');
  });

  it('values the dossier at the date and today and rounds the change', async () => {
    valuer.requests.length = 0;
    const body = await tracked({ dossierId: postcodeOnly });
    // 80 m² × 5000 and × 6078.5: +21.5625 % → 21.6.
    expect(body.valuations.map((v) => v.value)).toEqual([400000, 486280]);
    expect(body.valuationChangePercent).toBe(21.6);
    expect(valuer.requests.map((r) => [r.date, r.dealType])).toEqual([
      [DATE, 'sale'],
      [TODAY, 'sale'],
    ]);
    expect(valuer.requests[0]?.property).toEqual({
      countryCode: 'AT',
      propertyType: 'apartment',
      latitude: LAT,
      longitude: LON,
      locationPrecision: 'postcode',
      postalCode: '1010',
      livingArea: 80,
    });
  });

  it('gives a rent dossier’s valuations their gross and net rents, as the valuation endpoints do', async () => {
    const rent = await createDossier(world, world.memberA, {
      ...dossierAt({ address: { postCode: '1010' } }),
      dealType: 'rent',
      askingSalePrice: undefined,
    });
    const body = await tracked({ dossierId: rent });
    // No offer here states both rents: the default share of the gross rent is net.
    const ratio = limits.valuation.defaultNetRentRatio;
    expect(body.valuations).toHaveLength(2);
    for (const v of body.valuations) {
      expect(v.rentGross).toBe(v.value);
      expect(v.rentGrossRange).toEqual(v.valueRange);
      expect(v.rentNet).toBe(Math.round(v.value * ratio));
      expect(v.rentNetRange).toEqual({
        lower: Math.round(v.valueRange.lower * ratio),
        upper: Math.round(v.valueRange.upper * ratio),
      });
    }
    const sale = await tracked({ dossierId: postcodeOnly });
    for (const v of sale.valuations) expect(v).not.toHaveProperty('rentNet');
  });

  it('defaults the radius to 200 m', async () => {
    const body = await tracked({ dossierId: vienna });
    expect(body.offers.items.map((o) => o.id)).not.toContain('o4');
    const wider = await tracked({ dossierId: vienna, radius: 334 });
    expect(wider.offers.items.map((o) => o.id)).toContain('o4');
  });

  describe('errors', () => {
    it.each([
      ['a date after today', { date: '2026-06-16' }, '/date'],
      ['a date before the first offer', { date: '2023-12-31' }, '/date'],
      ['an impossible date', { date: '2025-02-30' }, '/date'],
      ['another country', { countryCode: 'DE' }, '/countryCode'],
      ['radius 0', { radius: 0 }, '/radius'],
      ['radius above 10000', { radius: 10001 }, '/radius'],
      ['an unknown field', { radiuss: 5 }, '/radiuss'],
    ])('%s → 400', async (_name, over, path) => {
      const problem = expectProblem(
        await track({ dossierId: vienna, countryCode: 'AT', date: DATE, ...over }),
        400,
        'validation_failed',
      );
      expect(problem.errors?.map((e) => e.path)).toContain(path);
    });

    it('accepts the first offer date itself', async () => {
      expect(
        (await track({ dossierId: vienna, countryCode: 'AT', date: '2024-01-01' })).statusCode,
      ).toBe(200);
    });

    it('usePostalCode needs a dossier with a postcode', async () => {
      const problem = expectProblem(
        await track({ dossierId: graz, countryCode: 'AT', date: DATE, usePostalCode: true }),
        400,
        'validation_failed',
      );
      expect(problem.errors?.[0]?.path).toBe('/usePostalCode');
    });

    it('another organization’s dossier is the 404 of a missing one', async () => {
      const payload = { countryCode: 'AT', date: DATE };
      const strip = (p: Problem) => ({ ...p, requestId: '' });
      const foreign = expectProblem(
        await track({ ...payload, dossierId: vienna }, world.memberB),
        404,
        'not_found',
      );
      const missing = expectProblem(
        await track(
          { ...payload, dossierId: '00000000-0000-4000-8000-000000000000' },
          world.memberB,
        ),
        404,
        'not_found',
      );
      expect(strip(foreign)).toEqual(strip(missing));
      expect((await track({ ...payload, dossierId: vienna }, world.adminA)).statusCode).toBe(200);
    });

    it('accepts the token as the access_token query parameter', async () => {
      const res = await call(world.app, {
        method: 'POST',
        url: `/api/v1/property_tracker?access_token=${encodeURIComponent(world.memberA.token)}`,
        payload: { dossierId: vienna, countryCode: 'AT', date: DATE },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
  });
});
