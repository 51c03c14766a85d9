import { afterAll, beforeAll, expect, it } from 'vitest';
import { importRows, OFFER_FACT_COLUMNS, OFFER_KEY_COLUMNS } from '../../../test/helpers/market.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import {
  call,
  createWorld,
  expectStatus,
  postAs,
  type World,
} from '../../../test/helpers/world.js';
import { describeBackends } from '../../../test/helpers/backends.js';
import type { StatisticsResponse } from './schemas.js';

// Hand-made offers in Vienna's 1st district (AT level 8 `901`, level 6 `900`), one in the
// 2nd district (`902`). The expected answers below are worked out by hand from these rows.
const HEADER = [...OFFER_KEY_COLUMNS, ...OFFER_FACT_COLUMNS, 'postalCode'];
const ROWS = [
  [
    's1',
    'AT',
    'sale',
    'apartment',
    '2024-01-10',
    false,
    false,
    true,
    300000,
    null,
    null,
    60,
    2,
    1900,
    30,
    48.2077,
    16.3705,
    '1010',
  ],
  [
    's2',
    'AT',
    'sale',
    'apartment',
    '2024-02-15',
    true,
    false,
    false,
    400000,
    null,
    null,
    80,
    3,
    1960,
    60,
    48.21,
    16.37,
    '1010',
  ],
  [
    's3',
    'AT',
    'sale',
    'house',
    '2024-04-01',
    true,
    true,
    false,
    900000,
    null,
    null,
    150,
    5,
    2020,
    90,
    48.215,
    16.38,
    '1010',
  ],
  [
    's4',
    'AT',
    'sale',
    'apartment',
    '2024-07-01',
    true,
    false,
    true,
    250000,
    null,
    null,
    50,
    2,
    1990,
    20,
    48.2,
    16.36,
    '1010',
  ],
  [
    's5',
    'AT',
    'sale',
    'apartment',
    '2025-01-05',
    true,
    false,
    false,
    500000,
    null,
    null,
    100,
    4,
    2010,
    45,
    48.208,
    16.371,
    '1010',
  ],
  [
    's6',
    'AT',
    'sale',
    'apartment',
    '2025-03-05',
    true,
    false,
    false,
    350000,
    null,
    null,
    null,
    3,
    1970,
    50,
    48.207,
    16.372,
    '1010',
  ],
  [
    'x1',
    'AT',
    'sale',
    'apartment',
    '2024-01-10',
    true,
    false,
    false,
    999999,
    null,
    null,
    100,
    3,
    1950,
    10,
    48.22,
    16.39,
    '1020',
  ],
  [
    'r1',
    'AT',
    'rent',
    'apartment',
    '2024-03-01',
    true,
    false,
    false,
    null,
    1200,
    1000,
    60,
    2,
    1990,
    15,
    48.2077,
    16.3705,
    '1010',
  ],
  [
    'r2',
    'AT',
    'rent',
    'apartment',
    '2024-05-01',
    true,
    false,
    false,
    null,
    1500,
    1300,
    75,
    3,
    1990,
    15,
    48.2077,
    16.3705,
    '1010',
  ],
  [
    'r3',
    'AT',
    'rent',
    'apartment',
    '2025-02-01',
    true,
    false,
    false,
    null,
    900,
    750,
    40,
    1,
    1990,
    15,
    48.2077,
    16.3705,
    '1010',
  ],
];

describeBackends('POST /api/v1/offers/statistics', (backend) => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld(backend);
    await importRows(world, 'offers', HEADER, ROWS, '2026-11-21');
  });
  afterAll(() => world.close());

  const post = (payload: unknown) => postAs(world, '/api/v1/offers/statistics', payload);
  const stats = async (payload: unknown) =>
    expectStatus(await post(payload)).json<StatisticsResponse>();
  const countIn = async (filters: object, countryCode = 'AT') =>
    (
      await stats({
        statistics: [{ type: 'count', metric: 'sale_price' }],
        filters: { divisionLevel8: '901', ...filters },
        countryCode,
      })
    ).items[0]?.statistics[0]?.value;
  /** The request over the first district's (`901`) offers of one deal type. */
  const inFirstDistrict = (dealType: string, request: object) =>
    stats({ countryCode: 'AT', filters: { divisionLevel8: '901', dealType }, ...request });

  it('computes count, mean, percentiles and percentile rank', async () => {
    const body = await inFirstDistrict('sale', {
      statistics: [
        { type: 'count', metric: 'sale_price' },
        { type: 'mean', metric: 'sale_price' },
        { type: 'percentile', metric: 'sale_price', parameters: { percentileRank: 50 } },
        { type: 'percentile', metric: 'sale_price', parameters: { percentileRank: 25 } },
        { type: 'percentile_rank', metric: 'sale_price', parameters: { percentileValue: 400000 } },
        { type: 'mean', metric: 'sale_price_per_square_meter' },
        { type: 'count', metric: 'sale_price_per_square_meter' },
      ],
    });
    expect(body).toEqual({
      items: [
        {
          statistics: [
            { type: 'count', metric: 'sale_price', value: 6 },
            { type: 'mean', metric: 'sale_price', value: 450000 },
            {
              type: 'percentile',
              metric: 'sale_price',
              parameters: { percentileRank: 50 },
              value: 375000,
            },
            {
              type: 'percentile',
              metric: 'sale_price',
              parameters: { percentileRank: 25 },
              value: 312500,
            },
            {
              type: 'percentile_rank',
              metric: 'sale_price',
              parameters: { percentileValue: 400000 },
              value: (100 * 4) / 6,
            },
            { type: 'mean', metric: 'sale_price_per_square_meter', value: 5200 },
            { type: 'count', metric: 'sale_price_per_square_meter', value: 5 },
          ],
        },
      ],
    });
  });

  it('leaves values out below the minimum sample, but always gives the count', async () => {
    const body = await inFirstDistrict('rent', {
      statistics: [
        { type: 'mean', metric: 'rent_gross_per_square_meter' },
        { type: 'count', metric: 'rent_gross' },
      ],
    });
    expect(body.items[0]?.statistics).toEqual([
      { type: 'mean', metric: 'rent_gross_per_square_meter' },
      { type: 'count', metric: 'rent_gross', value: 3 },
    ]);
  });

  it.each([
    ['isActive', { isActive: false }, 1],
    ['isNew', { isNew: true }, 1],
    ['isPrivate', { isPrivate: true }, 2],
    ['propertyType', { propertyType: 'house' }, 1],
    ['livingArea (both ends included)', { livingArea: { min: 60, max: 100 } }, 3],
    // A range without bounds still asks for a value: s6 states no living area.
    ['livingArea without bounds', { livingArea: {} }, 5],
    ['buildingYear', { buildingYear: { max: 1960 } }, 2],
    ['numberOfRooms', { numberOfRooms: { min: 3 } }, 4],
    ['daysOnMarket', { daysOnMarket: { max: 30 } }, 2],
    ['salePrice', { salePrice: { min: 300000, max: 400000, currency: 'EUR' } }, 3],
    ['startDate (months, inclusive)', { startDate: { min: '2024-02', max: '2024-04' } }, 2],
    ['radius', { coordinates: { latitude: 48.2077, longitude: 16.3705 }, radius: 100 }, 2],
    ['dealType', { dealType: 'rent' }, 0],
  ])('filters by %s', async (_name, filters, expected) => {
    expect(await countIn(filters)).toBe(expected);
  });

  it('filters rents by rentGross', async () => {
    const body = await stats({
      countryCode: 'AT',
      filters: { divisionLevel8: '901', dealType: 'rent', rentGross: { min: 1000, max: 1500 } },
      statistics: [{ type: 'count', metric: 'rent_gross' }],
    });
    expect(body.items[0]?.statistics[0]?.value).toBe(2);
  });

  it('passes no offer without a value through a price range, even one without bounds', async () => {
    const rentsWith = async (filters: object) =>
      (
        await stats({
          countryCode: 'AT',
          filters: { divisionLevel8: '901', ...filters },
          statistics: [{ type: 'count', metric: 'rent_gross' }],
        })
      ).items[0]?.statistics[0]?.value;
    expect(await rentsWith({})).toBe(3);
    expect(await rentsWith({ salePrice: { currency: 'EUR' } })).toBe(0);
    expect(await rentsWith({ salePrice: { min: 0 } })).toBe(0);
  });

  it('uses the requested division level', async () => {
    expect(
      await countIn({ divisionLevel8: undefined, divisionLevel6: '900', dealType: 'sale' }),
    ).toBe(7);
    expect(await countIn({ divisionLevel8: undefined, divisionLevel100: '1020' })).toBe(1);
    // A postcode as people write it: compared without spaces, as everywhere.
    expect(await countIn({ divisionLevel8: undefined, divisionLevel100: ' 10 20' })).toBe(1);
  });

  it('groups by quarter with every period, empty ones included', async () => {
    const body = await stats({
      countryCode: 'AT',
      filters: {
        divisionLevel6: '900',
        dealType: 'sale',
        startDate: { min: '2024-01', max: '2024-12' },
      },
      groupBy: { field: 'start_date', period: 'quarter' },
      statistics: [
        { type: 'count', metric: 'sale_price' },
        { type: 'mean', metric: 'sale_price' },
      ],
    });
    expect(
      body.items.map((i) => [i.groupId, i.statistics[0]?.value, i.statistics[1]?.value]),
    ).toEqual([
      ['2024-Q1', 3, undefined],
      ['2024-Q2', 1, undefined],
      ['2024-Q3', 1, undefined],
      ['2024-Q4', 0, undefined],
    ]);
  });

  it('groups by month and by year', async () => {
    const countsBy = async (period: string, min: string, max: string, metric: string) =>
      (
        await stats({
          countryCode: 'AT',
          filters: { divisionLevel8: '901', startDate: { min, max } },
          groupBy: { field: 'start_date', period },
          statistics: [{ type: 'count', metric }],
        })
      ).items.map((i) => [i.groupId, i.statistics[0]?.value]);
    expect(await countsBy('month', '2024-12', '2025-03', 'living_area')).toEqual([
      ['2024-12', 0],
      ['2025-01', 1],
      ['2025-02', 1],
      ['2025-03', 0],
    ]);
    expect(await countsBy('year', '2024-06', '2025-02', 'sale_price')).toEqual([
      ['2024', 1],
      ['2025', 1],
    ]);
  });

  it('groups by value ranges, lower bound included, upper excluded, overlapping allowed', async () => {
    const body = await inFirstDistrict('sale', {
      groupBy: {
        field: 'living_area',
        groups: [{ upperBound: 60 }, { lowerBound: 60, upperBound: 100 }, { lowerBound: 50 }],
      },
      statistics: [{ type: 'count', metric: 'sale_price' }],
    });
    expect(body.items).toEqual([
      {
        groupId: '0',
        groupUpperBound: 60,
        statistics: [{ type: 'count', metric: 'sale_price', value: 1 }],
      },
      {
        groupId: '1',
        groupLowerBound: 60,
        groupUpperBound: 100,
        statistics: [{ type: 'count', metric: 'sale_price', value: 2 }],
      },
      {
        groupId: '2',
        groupLowerBound: 50,
        statistics: [{ type: 'count', metric: 'sale_price', value: 5 }],
      },
    ]);
  });

  it.each([
    ['no division', { filters: {} }, '/filters'],
    ['two divisions', { filters: { divisionLevel6: '900', divisionLevel8: '901' } }, '/filters'],
    [
      'radius without coordinates',
      { filters: { divisionLevel8: '901', radius: 10 } },
      '/filters/coordinates',
    ],
    [
      'coordinates without radius',
      { filters: { divisionLevel8: '901', coordinates: { latitude: 48, longitude: 16 } } },
      '/filters/radius',
    ],
    [
      'radius too large',
      {
        filters: {
          divisionLevel8: '901',
          coordinates: { latitude: 48, longitude: 16 },
          radius: 10001,
        },
      },
      '/filters/radius',
    ],
    [
      'startDate min after max',
      { filters: { divisionLevel8: '901', startDate: { min: '2025-01', max: '2024-01' } } },
      '/filters/startDate',
    ],
    [
      'startDate not YYYY-MM',
      { filters: { divisionLevel8: '901', startDate: { min: '2025-13' } } },
      '/filters/startDate/min',
    ],
    [
      'bedrooms outside BE',
      { statistics: [{ type: 'count', metric: 'number_of_bedrooms' }] },
      '/statistics/0/metric',
    ],
    [
      'salePrice with rent',
      { filters: { divisionLevel8: '901', dealType: 'rent', salePrice: { min: 1 } } },
      '/filters/salePrice',
    ],
    [
      'rentGross with sale',
      { filters: { divisionLevel8: '901', dealType: 'sale', rentGross: { min: 1 } } },
      '/filters/rentGross',
    ],
    [
      'hasOpenKitchen outside CZ',
      { filters: { divisionLevel8: '901', hasOpenKitchen: true } },
      '/filters/hasOpenKitchen',
    ],
    [
      'wrong currency',
      { filters: { divisionLevel8: '901', salePrice: { currency: 'CHF', min: 1 } } },
      '/filters/salePrice/currency',
    ],
    [
      'percentile without rank',
      { statistics: [{ type: 'percentile', metric: 'sale_price' }] },
      '/statistics/0/parameters/percentileRank',
    ],
    [
      'percentile_rank without value',
      { statistics: [{ type: 'percentile_rank', metric: 'sale_price' }] },
      '/statistics/0/parameters/percentileValue',
    ],
    [
      'a rank with mean',
      { statistics: [{ type: 'mean', metric: 'sale_price', parameters: { percentileRank: 50 } }] },
      '/statistics/0/parameters/percentileRank',
    ],
    [
      'a value with percentile',
      {
        statistics: [
          {
            type: 'percentile',
            metric: 'sale_price',
            parameters: { percentileRank: 50, percentileValue: 3000 },
          },
        ],
      },
      '/statistics/0/parameters/percentileValue',
    ],
    [
      'a rank with count',
      { statistics: [{ type: 'count', metric: 'sale_price', parameters: { percentileRank: 5 } }] },
      '/statistics/0/parameters/percentileRank',
    ],
    ['metric grouping without groups', { groupBy: { field: 'living_area' } }, '/groupBy/groups'],
    [
      'start_date grouping without period',
      {
        groupBy: { field: 'start_date' },
        filters: { divisionLevel8: '901', startDate: { min: '2024-01', max: '2024-02' } },
      },
      '/groupBy/period',
    ],
    [
      'start_date grouping without min/max',
      { groupBy: { field: 'start_date', period: 'month' } },
      '/filters/startDate',
    ],
    [
      'more than 600 periods',
      {
        groupBy: { field: 'start_date', period: 'month' },
        filters: { divisionLevel8: '901', startDate: { min: '1900-01', max: '2000-01' } },
      },
      '/filters/startDate',
    ],
    [
      'group without bounds',
      { groupBy: { field: 'living_area', groups: [{}] } },
      '/groupBy/groups/0',
    ],
    [
      '25 groups',
      {
        groupBy: {
          field: 'living_area',
          groups: Array.from({ length: 25 }, () => ({ lowerBound: 1 })),
        },
      },
      '/groupBy/groups',
    ],
    [
      'range min > max',
      { filters: { divisionLevel8: '901', livingArea: { min: 100, max: 50 } } },
      '/filters/livingArea',
    ],
    [
      'percentileRank over 100',
      {
        statistics: [
          { type: 'percentile', metric: 'sale_price', parameters: { percentileRank: 101 } },
        ],
      },
      '/statistics/0/parameters/percentileRank',
    ],
    ['unknown filter', { filters: { divisionLevel8: '901', colour: 'red' } }, '/filters/colour'],
    [
      'a living area of 1e300',
      { filters: { divisionLevel8: '901', livingArea: { min: 1e300 } } },
      '/filters/livingArea/min',
    ],
    [
      '1e308 rooms',
      { filters: { divisionLevel8: '901', numberOfRooms: { max: 1e308 } } },
      '/filters/numberOfRooms/max',
    ],
    [
      'a sale price of 1e19',
      { filters: { divisionLevel8: '901', salePrice: { max: 1e19 } } },
      '/filters/salePrice/max',
    ],
    [
      'a group bound of 9.3e18',
      {
        groupBy: { field: 'living_area', groups: [{ lowerBound: 0, upperBound: 9.3e18 }] },
      },
      '/groupBy/groups/0/upperBound',
    ],
    [
      'a percentile value of 2^63',
      {
        statistics: [
          {
            type: 'percentile_rank',
            metric: 'sale_price',
            parameters: { percentileValue: 2 ** 63 },
          },
        ],
      },
      '/statistics/0/parameters/percentileValue',
    ],
    [
      '51 statistics',
      { statistics: Array.from({ length: 51 }, () => ({ type: 'count', metric: 'sale_price' })) },
      '/statistics',
    ],
  ])('400 for %s', async (_name, change, pathExpected) => {
    const payload = {
      countryCode: 'AT',
      filters: { divisionLevel8: '901' },
      statistics: [{ type: 'count', metric: 'sale_price' }],
      ...change,
    };
    const body = expectProblem(await post(payload), 400, 'validation_failed');
    expect(body.errors?.map((e) => e.path)).toContain(pathExpected);
  });

  it('says what a month is when one is not', async () => {
    for (const min of ['2026-13', '2026-2', '26-02']) {
      const body = expectProblem(
        await post({
          countryCode: 'AT',
          filters: { divisionLevel8: '901', startDate: { min } },
          statistics: [{ type: 'count', metric: 'sale_price' }],
        }),
        400,
        'validation_failed',
      );
      expect(body.errors, min).toEqual([
        { path: '/filters/startDate/min', message: 'must be a month, YYYY-MM (01–12)' },
      ]);
    }
  });

  it('takes empty parameters with any statistic, and names the statistic a parameter belongs to', async () => {
    const res = await post({
      countryCode: 'AT',
      filters: { divisionLevel8: '901' },
      statistics: [
        { type: 'count', metric: 'sale_price', parameters: {} },
        { type: 'mean', metric: 'sale_price', parameters: {} },
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = expectProblem(
      await post({
        countryCode: 'AT',
        filters: { divisionLevel8: '901' },
        statistics: [{ type: 'mean', metric: 'sale_price', parameters: { percentileValue: 9 } }],
      }),
      400,
      'validation_failed',
    );
    expect(body.errors).toEqual([
      {
        path: '/statistics/0/parameters/percentileValue',
        message: 'applies only to percentile_rank, not to mean',
      },
    ]);
  });

  it('400 unknown_division for a division the country does not have', async () => {
    const body = expectProblem(
      await post({
        countryCode: 'DE',
        filters: { divisionLevel8: '901' },
        statistics: [{ type: 'count', metric: 'sale_price' }],
      }),
      400,
      'unknown_division',
    );
    expect(body.detail).toBe('Division 901 of level 8 is unknown for DE');
  });

  it('lists at most 20 errors, as every 400 does, when a rule fails for all 50 statistics', async () => {
    const body = expectProblem(
      await post({
        countryCode: 'AT',
        filters: { divisionLevel8: '901' },
        statistics: Array.from({ length: 50 }, () => ({
          type: 'percentile',
          metric: 'sale_price',
        })),
      }),
      400,
      'validation_failed',
    );
    expect(body.errors).toHaveLength(20);
    expect(body.errors?.map((e) => e.path)).toEqual(
      Array.from({ length: 20 }, (_, i) => `/statistics/${i}/parameters/percentileRank`),
    );
    expect(body.detail.split('; ')).toHaveLength(20);
  });

  it('needs a token', async () => {
    const res = await call(world.app, {
      method: 'POST',
      url: '/api/v1/offers/statistics',
      payload: {},
    });
    expectProblem(res, 401, 'unauthenticated');
  });

  it('documents the endpoint with a request example the API accepts and a response example', async () => {
    const doc = (await call(world.app, { method: 'GET', url: '/api/v1/openapi.json' })).json<{
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody: { content: Record<string, { example?: unknown }> };
            responses: Record<string, { content: Record<string, { example?: unknown }> }>;
          }
        >
      >;
    }>();
    const operation = doc.paths['/api/v1/offers/statistics']?.post;
    const example = operation?.requestBody.content['application/json']?.example;
    expect(example).toBeDefined();
    const answer = await stats(example);
    expect(answer.items.map((i) => i.groupId)).toEqual(['2025-01', '2025-02', '2025-03']);
    expect(operation?.responses['200']?.content['application/json']?.example).toMatchObject({
      items: [{ groupId: '2025-01' }, { groupId: '2025-02' }, { groupId: '2025-03' }],
    });
  });
});
