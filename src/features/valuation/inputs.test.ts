import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/helpers/problem.js';
import { fixedValuer } from '../../../test/helpers/valuer.js';
import { call, createWorld, type World } from '../../../test/helpers/world.js';
import { createDossier } from '../../../test/helpers/fixtures.js';
import { InsufficientDataError } from '../../valuation/errors.js';
import { EXAMPLE_DOSSIER } from '../dossiers/schemas.js';

const URL = '/api/v1/valuation/property_value';
const property = EXAMPLE_DOSSIER.property;
const base = { dealType: 'sale', countryCode: 'AT' };

describe('valuation inputs: lenient where the original is, one message per real problem', () => {
  let world: World;
  const valuer = fixedValuer();
  beforeAll(async () => {
    world = await createWorld('sqlite', {
      app: { now: () => new Date('2026-06-15T08:00:00Z'), valueProperty: valuer },
    });
  });
  afterAll(() => world.close());
  const post = (payload: object) =>
    call(world.app, { method: 'POST', url: URL, token: world.memberA.token, payload });
  const errors = async (payload: object) =>
    expectProblem(await post(payload), 400, 'validation_failed').errors;

  it('takes date-times by their day, a numeric postcode as text, and balconyArea and isFurnished', async () => {
    valuer.requests.length = 0;
    const res = await post({
      ...base,
      // A leap second and the day's end are times too; only the day is used.
      valuationDates: [
        '2026-01-01T00:00:00',
        '2026-02-01T23:30:00+01:00',
        '2026-03-01T23:59:60Z',
        '2026-04-01T24:00',
      ],
      valuationInputs: [
        {
          property: {
            ...property,
            location: { address: { postCode: 1010 } },
            balconyArea: 6,
            isFurnished: true,
          },
        },
      ],
      returnScores: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(valuer.requests.map((r) => r.date)).toEqual([
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
      '2026-04-01',
    ]);
    expect(valuer.requests[0]?.property).toMatchObject({
      postalCode: '1010',
      hasBalcony: true,
      isFurnished: true,
    });
  });

  it.each([
    [
      'a misspelt field',
      { valuationInputs: [{ property: { ...property, livingAera: 50 } }] },
      [{ path: '/valuationInputs/0/property/livingAera', message: 'is not allowed' }],
    ],
    [
      'a postcode of the wrong type',
      {
        valuationInputs: [{ property: { ...property, location: { address: { postCode: true } } } }],
      },
      [
        {
          path: '/valuationInputs/0/property/location/address/postCode',
          message: 'must be string or integer',
        },
      ],
    ],
    [
      'a postcode too long',
      {
        valuationInputs: [
          { property: { ...property, location: { address: { postCode: 'x'.repeat(21) } } } },
        ],
      },
      [
        {
          path: '/valuationInputs/0/property/location/address/postCode',
          message: 'must NOT have more than 20 characters',
        },
      ],
    ],
    [
      'a day that is not in the calendar',
      { valuationDates: ['2026-02-30T00:00:00'], valuationInputs: [{ property }] },
      [
        {
          path: '/valuationDates/0',
          message: '"2026-02-30T00:00:00" is not a day of the calendar',
        },
      ],
    ],
    [
      'a time that is no time, and a zone beyond ±14:00',
      {
        valuationDates: ['2024-01-01T25:00:00', '2024-01-01T10:00:00+99:00'],
        valuationInputs: [{ property }],
      },
      [0, 1].map((i) => ({
        path: `/valuationDates/${String(i)}`,
        message:
          'must be a day, YYYY-MM-DD, or an ISO 8601 date-time (2026-11-23T00:00:00, a zone optional)',
      })),
    ],
    [
      'a building id',
      { valuationInputs: [{ buildingId: 'b-1' }] },
      [
        {
          path: '/valuationInputs/0/buildingId',
          message:
            'is not supported: this service values a property or a dossier (it holds no building register)',
        },
      ],
    ],
    [
      'an energy label that is none',
      { valuationInputs: [{ property: { ...property, energyLabel: 'Z' } }] },
      [
        {
          path: '/valuationInputs/0/property/energyLabel',
          message: 'must be an energy class: A+++, A++, A+, A … H',
        },
      ],
    ],
  ])('%s is one error at its field', async (_name, over, expected) => {
    expect(await errors({ ...base, ...over })).toEqual(expected);
  });

  it('the light valuation takes a property or a dossier, not both, and answers one Valuation', async () => {
    const light = (payload: object) =>
      call(world.app, {
        method: 'POST',
        url: '/api/v1/valuation/property_value_light',
        token: world.memberA.token,
        payload,
      });
    const dossierId = await createDossier(world);
    const byDossier = await light({ ...base, dossierId });
    expect(byDossier.statusCode, byDossier.body).toBe(200);
    expect(byDossier.json()).toMatchObject({ value: 360000, currency: 'EUR' });
    // The same Valuation also as valuations[0][0], the shape the PHP client reads.
    const { valuations, ...top } = byDossier.json<{ valuations: unknown[][] }>();
    expect(valuations).toEqual([[top]]);
    const rent = await light({
      dealType: 'rent',
      countryCode: 'AT',
      property: {
        location: property.location,
        propertyType: property.propertyType,
        livingArea: 60,
        condition: 'well_maintained',
      },
    });
    expect(rent.json()).toMatchObject({ value: 1000, rentGross: 1000, rentNet: 800 });
    const lightProperty = {
      location: property.location,
      propertyType: property.propertyType,
      livingArea: 60,
    };
    const both = expectProblem(
      await light({ ...base, property: lightProperty, dossierId }),
      400,
      'validation_failed',
    );
    expect(both.message).toBe('body must have either property or dossierId, not both');
    // Said first, not after what an incomplete property lacks (which the schema would list).
    const bothIncomplete = expectProblem(
      await light({ ...base, property: { location: property.location }, dossierId }),
      400,
      'validation_failed',
    );
    expect(bothIncomplete.errors).toEqual([
      { path: '', message: 'must have either property or dossierId, not both' },
    ]);
    const fullBoth = await errors({
      ...base,
      valuationInputs: [{ property }, { property: { location: property.location }, dossierId }],
    });
    expect(fullBoth).toEqual([
      { path: '/valuationInputs/1', message: 'must have either property or dossierId, not both' },
    ]);
    const neither = expectProblem(await light(base), 400, 'validation_failed');
    expect(neither.errors).toEqual([
      { path: '/property', message: 'is required unless dossierId is given' },
    ]);
    const wrong = expectProblem(
      await light({
        ...base,
        property: {
          location: property.location,
          propertyType: property.propertyType,
          livingArea: 60,
          condition: { kitchen: 'simple' },
        },
      }),
      400,
      'validation_failed',
    );
    expect(wrong.errors).toEqual([
      {
        path: '/property/condition',
        message:
          'must be one of "renovation_needed", "well_maintained", "new_or_recently_renovated"',
      },
    ]);
  });

  it('a multi-family house is stored on a dossier but cannot be valued: the refusal names it', async () => {
    const res = await post({
      ...base,
      valuationInputs: [
        { property },
        { property: { ...property, propertyType: { code: 'multi_family_house' } } },
      ],
    });
    const problem = expectProblem(res, 422, 'insufficient_data');
    expect(problem.errors).toEqual([
      {
        path: '/valuationInputs/1',
        message:
          'cannot be valued: no multi_family_house offers in the market data (only apartments and houses) to value it',
      },
    ]);
    expect(problem.detail).toMatch(/^valuationInputs\[1\] cannot be valued: /);
  });
});

describe('a batch with one property the data cannot support', () => {
  let world: World;
  const valuer = fixedValuer();
  /** Valuations the model was asked for. */
  let asked = 0;
  beforeAll(async () => {
    world = await createWorld('sqlite', {
      app: {
        now: () => new Date('2026-06-15T08:00:00Z'),
        // The data supports no 500 m² property before March (the model's refusal, as it words it).
        valueProperty: (db, request) => {
          asked++;
          return request.property.livingArea === 500 && request.date < '2026-03-01'
            ? Promise.reject(new InsufficientDataError('too few comparable sale offers'))
            : valuer(db, request);
        },
      },
    });
  });
  afterAll(() => world.close());
  const postBatch = (body: object) =>
    call(world.app, {
      method: 'POST',
      url: URL,
      token: world.memberA.token,
      payload: { ...base, ...body },
    });

  it('fails as a whole, naming the input and the date that failed it', async () => {
    const res = await postBatch({
      valuationDates: ['2026-06-01', '2026-02-01'],
      valuationInputs: [{ property }, { property: { ...property, livingArea: 500 } }],
    });
    const problem = expectProblem(res, 422, 'insufficient_data');
    expect(problem.errors).toEqual([
      {
        path: '/valuationInputs/1',
        message: 'cannot be valued at 2026-02-01: too few comparable sale offers',
      },
    ]);
    expect(problem.detail).toBe(
      'valuationInputs[1] cannot be valued at 2026-02-01: too few comparable sale offers',
    );
  });

  it('names every input that failed and every date it failed at, so one retry leaves them all out', async () => {
    const res = await postBatch({
      valuationDates: ['2026-01-01', '2026-06-01', '2026-02-01'],
      valuationInputs: [
        { property: { ...property, livingArea: 500 } },
        { property },
        { property: { ...property, propertyType: { code: 'multi_family_house' } } },
        { property: { ...property, livingArea: 500 }, valuationDates: ['2026-05-01'] },
        { property: { ...property, livingArea: 500 }, valuationDates: ['2025-12-01'] },
      ],
    });
    const problem = expectProblem(res, 422, 'insufficient_data');
    expect(problem.errors).toEqual([
      {
        path: '/valuationInputs/0',
        message: 'cannot be valued at 2026-01-01, 2026-02-01: too few comparable sale offers',
      },
      {
        path: '/valuationInputs/2',
        message:
          'cannot be valued: no multi_family_house offers in the market data (only apartments and houses) to value it',
      },
      {
        path: '/valuationInputs/4',
        message: 'cannot be valued at 2025-12-01: too few comparable sale offers',
      },
    ]);
    expect(problem.detail).toMatch(
      /^valuationInputs\[0\] cannot be valued at 2026-01-01, 2026-02-01: .*; valuationInputs\[2\] cannot be valued: .*; valuationInputs\[4\] cannot be valued at 2025-12-01: /,
    );
  });

  it('lists every failing input of a full batch, beyond the usual 20 errors of a refusal', async () => {
    const res = await postBatch({
      valuationDates: ['2026-02-01'],
      valuationInputs: Array.from({ length: 30 }, () => ({
        property: { ...property, livingArea: 500 },
      })),
    });
    const problem = expectProblem(res, 422, 'insufficient_data');
    expect(problem.errors?.map((e) => e.path)).toEqual(
      Array.from({ length: 30 }, (_, i) => `/valuationInputs/${String(i)}`),
    );
  });

  it('values a date given twice, and a later one as of today, once each', async () => {
    asked = 0;
    const res = await postBatch({
      valuationDates: ['2026-05-01', '2026-05-01', '2027-01-01', '2026-06-15'],
      valuationInputs: [{ property }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = res.json<{ valuations: { valuationDate: string; value: number }[][] }>()
      .valuations;
    expect(row?.map((v) => v.valuationDate)).toEqual([
      '2026-05-01',
      '2026-05-01',
      '2026-06-15',
      '2026-06-15',
    ]);
    expect(row?.[0]).toEqual(row?.[1]);
    expect(row?.[2]).toEqual(row?.[3]);
    expect(asked).toBe(2);
  });
});
