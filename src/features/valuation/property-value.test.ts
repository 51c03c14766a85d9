import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestValuationDate } from './valuation-date.js';
import { leastConfidence } from './valuation.js';
import { describeBackends } from '../../../test/helpers/backends.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { fixedValuer } from '../../../test/helpers/valuer.js';
import { call, createWorld, type Member, type World } from '../../../test/helpers/world.js';
import { createDossier } from '../../../test/helpers/fixtures.js';
import type { Problem } from '../../http/problem.js';
import { EXAMPLE_DOSSIER } from '../dossiers/schemas.js';
import type { Valuation } from '../../valuation/types.js';

const TODAY = '2026-06-15';
const URL = '/api/v1/valuation/property_value';
const property = { ...EXAMPLE_DOSSIER.property, livingArea: 50 };

describeBackends('POST /api/v1/valuation/property_value', (backend) => {
  let world: World;
  let dossierId: string;
  const valuer = fixedValuer({ '2026-01-01': 4000 }, 5000);
  beforeAll(async () => {
    world = await createWorld(backend, {
      app: { now: () => new Date(`${TODAY}T08:00:00Z`), valueProperty: valuer },
    });
    dossierId = await createDossier(world);
  });
  afterAll(() => world.close());

  const post = (payload: object, who: Member = world.memberA) =>
    call(world.app, { method: 'POST', url: URL, token: who.token, payload });

  it('values each input at each date, in request order', async () => {
    valuer.requests.length = 0;
    const res = await post({
      dealType: 'sale',
      countryCode: 'AT',
      valuationDates: ['2026-01-01', TODAY],
      valuationInputs: [{ property }, { dossierId }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { valuations } = res.json<{ valuations: Valuation[][] }>();
    // 50 m² and the dossier's 72 m², at 4000 and 5000 per m².
    expect(valuations.map((row) => row.map((v) => v.value))).toEqual([
      [200000, 250000],
      [288000, 360000],
    ]);
    expect(valuations[0]?.[0]?.currency).toBe('EUR');
    expect(valuer.requests.map((r) => r.date)).toEqual(['2026-01-01', TODAY, '2026-01-01', TODAY]);
    // The whole answer's confidence, as the .NET client reads it (every one is `medium` here).
    expect(res.json<{ confidence: string }>().confidence).toBe('medium');
  });

  it('defaults to today, values rents, and takes a postcode-only property', async () => {
    valuer.requests.length = 0;
    const res = await post({
      dealType: 'rent',
      countryCode: 'AT',
      valuationInputs: [{ property: { ...property, location: { address: { postCode: '1010' } } } }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ valuations: Valuation[][] }>().valuations[0]?.[0]?.value).toBeCloseTo(
      250000 / 300,
    );
    expect(valuer.requests[0]).toMatchObject({
      date: TODAY,
      dealType: 'rent',
      property: { latitude: 48.2077, longitude: 16.3705, locationPrecision: 'postcode' },
    });
  });

  it('allows 50 property-date pairs and refuses 51', async () => {
    const dates = Array.from({ length: 10 }, (_, i) => `2026-01-${String(i + 10)}`);
    const five = Array.from({ length: 5 }, () => ({ property }));
    const ok = await post({
      dealType: 'sale',
      countryCode: 'AT',
      valuationDates: dates,
      valuationInputs: five,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const problem = expectProblem(
      await post({
        dealType: 'sale',
        countryCode: 'AT',
        valuationDates: dates,
        valuationInputs: [...five, { property }],
      }),
      400,
      'validation_failed',
    );
    expect(problem.errors?.[0]?.path).toBe('/valuationInputs');
  });

  it.each([
    [
      'a date more than five years after today',
      { valuationDates: ['2026-01-01', '2031-06-16'] },
      '/valuationDates/1',
    ],
    [
      'an input’s own date more than five years after today',
      { valuationInputs: [{ property, valuationDates: ['2031-06-16'] }] },
      '/valuationInputs/0/valuationDates/0',
    ],
    [
      'a request date not a day of the calendar, though each input has its own',
      {
        valuationDates: ['2026-02-30'],
        valuationInputs: [{ property, valuationDates: ['2026-01-01'] }],
      },
      '/valuationDates/0',
    ],
    [
      'a request date too far ahead, though each input has its own',
      {
        valuationDates: ['2036-01-01'],
        valuationInputs: [{ property, valuationDates: ['2026-01-01'] }],
      },
      '/valuationDates/0',
    ],
    [
      'empty coordinates and no postcode',
      { valuationInputs: [{ property: { ...property, location: { coordinates: {} } } }] },
      '/valuationInputs/0/property/location/coordinates',
    ],
    [
      'half coordinates',
      {
        valuationInputs: [
          { property: { ...property, location: { coordinates: { latitude: 48.2 } } } },
        ],
      },
      '/valuationInputs/0/property/location/coordinates/longitude',
    ],
    [
      'an unknown postcode only',
      {
        valuationInputs: [
          { property: { ...property, location: { address: { postCode: '99999' } } } },
        ],
      },
      '/valuationInputs/0/property/location/address/postCode',
    ],
    [
      'no location',
      { valuationInputs: [{ property: { ...property, location: {} } }] },
      '/valuationInputs/0/property/location/coordinates',
    ],
    [
      'both property and dossierId',
      { valuationInputs: [{ property, dossierId: '00000000-0000-4000-8000-000000000000' }] },
      '/valuationInputs/0',
    ],
    ['no inputs', { valuationInputs: [] }, '/valuationInputs'],
  ])('%s → 400', async (_name, over, path) => {
    const problem = expectProblem(
      await post({ dealType: 'sale', countryCode: 'AT', valuationInputs: [{ property }], ...over }),
      400,
      'validation_failed',
    );
    expect(
      problem.errors?.map((e) => e.path),
      JSON.stringify(problem.errors),
    ).toContain(path);
  });

  it('values a date after today as of today (no forecast), up to five years ahead', async () => {
    valuer.requests.length = 0;
    const res = await post({
      dealType: 'sale',
      countryCode: 'AT',
      valuationDates: ['2026-01-01', TODAY, '2027-06-15', '2031-06-15'],
      valuationInputs: [{ property }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = res.json<{ valuations: Valuation[][] }>().valuations;
    expect(row?.map((v) => v.value)).toEqual([200000, 250000, 250000, 250000]);
    // Today's value once, answered for each of the three.
    expect(valuer.requests.map((r) => r.date)).toEqual(['2026-01-01', TODAY]);
    // Each says the day it is as of, and its confidence under the .NET client's name too.
    const dated = row as (Valuation & { valuationDate: string; valuationConfidence: string })[];
    expect(dated.map((v) => v.valuationDate)).toEqual(['2026-01-01', TODAY, TODAY, TODAY]);
    expect(dated.every((v) => v.valuationConfidence === v.confidence)).toBe(true);
    const beyond = expectProblem(
      await post({
        dealType: 'sale',
        countryCode: 'AT',
        valuationDates: ['2031-06-16'],
        valuationInputs: [{ property }],
      }),
      400,
      'validation_failed',
    );
    expect(beyond.errors).toEqual([
      {
        path: '/valuationDates/0',
        message: 'must not be more than 5 years after today (2031-06-15)',
      },
    ]);
  });

  it('takes each input’s own dates, and the request’s dossier for inputs naming none (.NET)', async () => {
    valuer.requests.length = 0;
    // As the .NET client sends it: the dossier beside the inputs, which hold only their dates.
    const net = await post({
      dealType: 'sale',
      valuationInputs: [{ valuationDates: ['2026-01-01T00:00:00'] }],
      returnScores: false,
      dossierId,
      countryCode: 'AT',
    });
    expect(net.statusCode, net.body).toBe(200);
    expect(net.json<{ valuations: Valuation[][] }>().valuations).toMatchObject([
      [{ value: 288000 }],
    ]);
    // Inputs with dates of their own beside one taking the request's; the request's dossierId
    // is not used by inputs that name their own property.
    const mixed = await post({
      dealType: 'sale',
      countryCode: 'AT',
      dossierId,
      valuationDates: [TODAY],
      valuationInputs: [{ property, valuationDates: ['2026-01-01', TODAY] }, { property }],
    });
    expect(mixed.statusCode, mixed.body).toBe(200);
    expect(
      mixed.json<{ valuations: Valuation[][] }>().valuations.map((row) => row.map((v) => v.value)),
    ).toEqual([[200000, 250000], [250000]]);
    // Pairs are counted over each input's own dates: 26 + 25 = 51.
    const day = (i: number) => `2026-0${String(1 + (i % 5))}-${String(10 + (i % 15))}`;
    const tooMany = expectProblem(
      await post({
        dealType: 'sale',
        countryCode: 'AT',
        valuationInputs: [
          { property, valuationDates: Array.from({ length: 26 }, (_, i) => day(i)) },
          { property, valuationDates: Array.from({ length: 25 }, (_, i) => day(i)) },
        ],
      }),
      400,
      'validation_failed',
    );
    expect(tooMany.detail).toContain('51 property-date pairs');
    // The request's dossier of another country is named where it was sent.
    const elsewhere = expectProblem(
      await post({
        dealType: 'sale',
        countryCode: 'DE',
        dossierId,
        valuationInputs: [{ valuationDates: [TODAY] }],
      }),
      400,
      'validation_failed',
    );
    expect(elsewhere.errors).toEqual([
      { path: '/dossierId', message: 'is a dossier in AT, not DE' },
    ]);
    // No property, no dossier, none beside: one message at the input.
    const none = expectProblem(
      await post({
        dealType: 'sale',
        countryCode: 'AT',
        valuationInputs: [{ valuationDates: [TODAY] }],
      }),
      400,
      'validation_failed',
    );
    expect(none.errors?.[0]).toMatchObject({
      path: '/valuationInputs/0/property',
      message: 'is required unless dossierId is given',
    });
  });

  it('reads empty coordinates as none (Ruby client 3.x) and accepts a language it ignores', async () => {
    valuer.requests.length = 0;
    const res = await post({
      dealType: 'sale',
      countryCode: 'AT',
      language: 'de',
      valuationInputs: [
        {
          property: {
            ...property,
            location: { address: { postCode: '1010' }, coordinates: {} },
            condition: {},
            quality: {},
          },
        },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    // Valued at the postcode's centroid, as a property given by its postcode alone.
    const point = valuer.requests[0]?.property;
    const byPostcode = await post({
      dealType: 'sale',
      countryCode: 'AT',
      valuationInputs: [{ property: { ...property, location: { address: { postCode: '1010' } } } }],
    });
    expect(byPostcode.statusCode, byPostcode.body).toBe(200);
    expect(valuer.requests[1]?.property).toEqual(point);
    expect(point?.locationPrecision).toBe('postcode');
  });

  it('a dossier of another country is a 400, of another organization a 404', async () => {
    const other = expectProblem(
      await post({ dealType: 'sale', countryCode: 'DE', valuationInputs: [{ dossierId }] }),
      400,
      'validation_failed',
    );
    expect(other.errors?.[0]?.path).toBe('/valuationInputs/0/dossierId');
    const strip = (p: Problem) => ({ ...p, requestId: '' });
    const foreign = expectProblem(
      await post(
        { dealType: 'sale', countryCode: 'AT', valuationInputs: [{ dossierId }] },
        world.adminB,
      ),
      404,
      'not_found',
    );
    const missing = expectProblem(
      await post(
        {
          dealType: 'sale',
          countryCode: 'AT',
          valuationInputs: [{ dossierId: '00000000-0000-4000-8000-000000000000' }],
        },
        world.adminB,
      ),
      404,
      'not_found',
    );
    expect(strip(foreign)).toEqual(strip(missing));
    expectProblem(
      await post({ dealType: 'sale', countryCode: 'JP', valuationInputs: [{ property }] }),
      400,
      'unsupported_country',
    );
  });

  it('reads a dossier id in capitals as the same dossier', async () => {
    const payload = { dealType: 'sale', countryCode: 'AT', valuationDates: [TODAY] };
    const lower = await post({ ...payload, valuationInputs: [{ dossierId }] });
    const upper = await post({
      ...payload,
      valuationInputs: [{ dossierId: dossierId.toUpperCase() }],
    });
    expect(upper.statusCode, upper.body).toBe(200);
    expect(upper.json()).toEqual(lower.json());
  });

  it('accepts the token as the access_token query parameter', async () => {
    const res = await call(world.app, {
      method: 'POST',
      url: `${URL}?access_token=${encodeURIComponent(world.memberA.token)}`,
      payload: { dealType: 'sale', countryCode: 'AT', valuationInputs: [{ dossierId }] },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('the latest valuation date', () => {
  it('is five years after today, 29 February falling back to the 28th', () => {
    expect(latestValuationDate('2026-06-15').day).toBe('2031-06-15');
    expect(latestValuationDate('2028-02-29').day).toBe('2033-02-28');
    expect(latestValuationDate('2027-02-28').day).toBe('2032-02-28');
  });
});

describe('leastConfidence', () => {
  const of = (...names: ('poor' | 'medium' | 'good')[]) =>
    leastConfidence(names.map((confidence) => ({ confidence })));
  it('is the least sure of the valuations, whatever their order', () => {
    expect(of('good', 'good')).toBe('good');
    expect(of('good', 'medium', 'good')).toBe('medium');
    expect(of('medium', 'good', 'poor')).toBe('poor');
    expect(of('poor')).toBe('poor');
  });
});
