import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import {
  csv,
  writeFile,
  OFFER_FACT_COLUMNS,
  OFFER_KEY_COLUMNS,
} from '../../../test/helpers/market.js';
import { createWorld, expectStatus, postAs, type World } from '../../../test/helpers/world.js';
import { importFile } from '../../market/import/run-import.js';
import { OFFER_METRICS, type OfferMetric } from '../../market/queries/offer-statistics.js';
import type { StatisticsResponse } from './schemas.js';

/*
 * Random small datasets and random requests; every answer of the service is compared with a
 * reference written here in plain TypeScript (filter rows, sort values, interpolate), which
 * shares nothing with the production query path. CI runs a fixed seed; elsewhere a new seed
 * each run (printed by fast-check on failure, replay with FC_SEED=<seed>).
 */

const MIN_SAMPLE = 3;
// Each run imports its dataset (a new snapshot: about a second on a loaded machine) and then checks
// up to 16 requests on it: fewer, larger runs compare as many answers for half the imports.
const RUNS = 30;
const MAX_REQUESTS = 16;
const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : process.env.CI === 'true'
    ? 20261121
    : undefined;
const EARTH_RADIUS_M = 6_371_008.8;
const CENTER = { latitude: 48.21, longitude: 16.37 };

interface Offer {
  id: string;
  division8: '901' | '902';
  dealType: 'sale' | 'rent';
  propertyType: 'apartment' | 'house';
  startDate: string;
  isActive: boolean;
  isNew: boolean;
  isPrivate: boolean;
  salePrice: number | null;
  rentGross: number | null;
  rentNet: number | null;
  livingArea: number | null;
  numberOfRooms: number | null;
  buildingYear: number | null;
  daysOnMarket: number;
  latitude: number;
  longitude: number;
}

// Every metric but number_of_bedrooms, which the AT data here does not have.
type Metric = Exclude<OfferMetric, 'number_of_bedrooms'>;
const METRICS = OFFER_METRICS.filter((m): m is Metric => m !== 'number_of_bedrooms');

const PER_AREA = '_per_square_meter';
type PlainMetric = Exclude<Metric, `${string}${typeof PER_AREA}`>;

function metricValue(o: Offer, metric: Metric): number | null {
  const plain: Record<PlainMetric, number | null> = {
    sale_price: o.salePrice,
    rent_gross: o.rentGross,
    rent_net: o.rentNet,
    living_area: o.livingArea,
    number_of_rooms: o.numberOfRooms,
    days_on_market: o.daysOnMarket,
  };
  if (!metric.endsWith(PER_AREA)) return plain[metric as PlainMetric];
  const v = plain[metric.slice(0, -PER_AREA.length) as PlainMetric];
  return v !== null && o.livingArea !== null && o.livingArea > 0 ? v / o.livingArea : null;
}

// Small value sets make ties (and so the percentile edge cases) frequent.
const price = fc.oneof(
  fc.constantFrom(100_000, 250_000, 250_000.5, 400_000),
  fc.integer({ min: 1_000, max: 2_000_000 }),
);
const rent = fc.oneof(fc.constantFrom(500, 750.25, 1_000), fc.integer({ min: 100, max: 5_000 }));
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 });
const day = fc
  .record({
    year: fc.integer({ min: 2023, max: 2025 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
  })
  .map(({ year, month, day: d }) => `${year}-${pad(month)}-${pad(d)}`);
const pad = (n: number) => String(n).padStart(2, '0');

const offerArb = fc
  .record({
    division8: fc.constantFrom('901' as const, '902' as const),
    dealType: fc.constantFrom('sale' as const, 'rent' as const),
    propertyType: fc.constantFrom('apartment' as const, 'house' as const),
    startDate: day,
    isActive: fc.boolean(),
    isNew: fc.boolean(),
    isPrivate: fc.boolean(),
    salePrice: price,
    rentGross: rent,
    rentNet: nullable(rent),
    livingArea: nullable(fc.oneof(fc.constantFrom(0, 60, 100), fc.integer({ min: 15, max: 300 }))),
    numberOfRooms: nullable(fc.integer({ min: 1, max: 16 }).map((n) => n / 2)),
    buildingYear: nullable(fc.integer({ min: 1850, max: 2025 })),
    daysOnMarket: fc.oneof(fc.constantFrom(0, 30, 60), fc.integer({ min: 0, max: 400 })),
    dLat: fc.double({ min: -0.02, max: 0.02, noNaN: true }),
    dLon: fc.double({ min: -0.03, max: 0.03, noNaN: true }),
  })
  .map(({ dLat, dLon, ...o }) => ({
    ...o,
    salePrice: o.dealType === 'sale' ? o.salePrice : null,
    rentGross: o.dealType === 'rent' ? o.rentGross : null,
    rentNet: o.dealType === 'rent' ? o.rentNet : null,
    latitude: CENTER.latitude + dLat,
    longitude: CENTER.longitude + dLon,
  }));
const datasetArb = fc
  .array(offerArb, { minLength: 5, maxLength: 80, size: 'max' })
  .map((offers) => offers.map((o, i): Offer => ({ id: `o${i}`, ...o })));

interface Range {
  min?: number;
  max?: number;
}
interface Request {
  countryCode: 'AT';
  statistics: {
    type: 'mean' | 'count' | 'percentile' | 'percentile_rank';
    metric: Metric;
    parameters?: { percentileRank?: number; percentileValue?: number };
  }[];
  filters: {
    divisionLevel6?: string;
    divisionLevel8?: string;
    dealType?: 'sale' | 'rent';
    propertyType?: 'apartment' | 'house';
    isActive?: boolean;
    isNew?: boolean;
    isPrivate?: boolean;
    salePrice?: Range;
    rentGross?: Range;
    livingArea?: Range;
    buildingYear?: Range;
    numberOfRooms?: Range;
    daysOnMarket?: Range;
    startDate?: { min?: string; max?: string };
    coordinates?: { latitude: number; longitude: number };
    radius?: number;
  };
  groupBy?: {
    field: 'start_date' | Metric;
    period?: 'month' | 'quarter' | 'year';
    groups?: { lowerBound?: number; upperBound?: number }[];
  };
}

const statisticArb = fc.oneof(
  fc.record({
    type: fc.constantFrom('mean' as const, 'count' as const),
    metric: fc.constantFrom(...METRICS),
  }),
  fc.record({
    type: fc.constant('percentile' as const),
    metric: fc.constantFrom(...METRICS),
    parameters: fc.record({ percentileRank: fc.integer({ min: 0, max: 100 }) }),
  }),
  fc.record({
    type: fc.constant('percentile_rank' as const),
    metric: fc.constantFrom(...METRICS),
    parameters: fc.record({
      percentileValue: fc.oneof(
        fc.constantFrom(0, 60, 250_000, 750, 1_000),
        fc.integer({ min: 0, max: 2_000_000 }),
      ),
    }),
  }),
);

/** A range with min ≤ max, either end optional. */
const rangeArb = (lo: number, hi: number) =>
  fc
    // Both ends may be missing: `{}` still asks for a value (the contract's rule).
    .tuple(fc.option(fc.integer({ min: lo, max: hi })), fc.option(fc.integer({ min: lo, max: hi })))
    .map(([a, b]): Range => {
      const [min, max] = a !== null && b !== null && a > b ? [b, a] : [a, b];
      return { ...(min !== null ? { min } : {}), ...(max !== null ? { max } : {}) };
    });
const monthArb = fc
  .record({ year: fc.integer({ min: 2022, max: 2026 }), month: fc.integer({ min: 1, max: 12 }) })
  .map(({ year, month }) => `${year}-${pad(month)}`);
// Bounds often equal values in the data, so that inclusive/exclusive ends are put to the test.
const boundArb = fc.oneof(
  fc.constantFrom(0, 2.5, 3, 30, 60, 100, 500, 750.25, 1_000, 100_000, 250_000, 250_000.5, 400_000),
  fc.integer({ min: 0, max: 400 }),
  fc.integer({ min: 0, max: 2_000_000 }),
  fc.double({ min: 0, max: 10_000, noNaN: true }),
);
const valueGroupArb = fc
  .tuple(fc.option(boundArb), fc.option(boundArb))
  .filter(([a, b]) => a !== null || b !== null)
  .map(([a, b]) => {
    const [lo, hi] = a !== null && b !== null && a > b ? [b, a] : [a, b];
    return {
      ...(lo !== null ? { lowerBound: lo } : {}),
      ...(hi !== null ? { upperBound: hi } : {}),
    };
  });

/** Ranges one after the other (the usual request: histogram bins), ends open or not. */
const consecutiveGroupsArb = fc
  .tuple(fc.uniqueArray(boundArb, { minLength: 2, maxLength: 6 }), fc.boolean(), fc.boolean())
  .map(([bounds, openLow, openHigh]) => {
    const sorted = [...bounds].sort((a, b) => a - b);
    const groups: { lowerBound?: number; upperBound?: number }[] = sorted
      .slice(1)
      .map((upper, i) => ({ lowerBound: sorted[i] as number, upperBound: upper }));
    if (openLow) groups.unshift({ upperBound: sorted[0] });
    if (openHigh) groups.push({ lowerBound: sorted.at(-1) });
    return groups;
  });

/** Present in about one request in five, so that most requests still match some offers. */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: arb, weight: 1 });

const requestArb: fc.Arbitrary<Request> = fc
  .record({
    statistics: fc.array(statisticArb, { minLength: 1, maxLength: 5 }),
    division: fc.constantFrom(
      ['divisionLevel8', '901'],
      ['divisionLevel8', '902'],
      ['divisionLevel6', '900'],
    ),
    dealType: sometimes(fc.constantFrom('sale' as const, 'rent' as const)),
    propertyType: sometimes(fc.constantFrom('apartment' as const, 'house' as const)),
    isActive: sometimes(fc.boolean()),
    isNew: sometimes(fc.boolean()),
    isPrivate: sometimes(fc.boolean()),
    salePrice: sometimes(rangeArb(0, 2_000_000)),
    rentGross: sometimes(rangeArb(0, 5_000)),
    livingArea: sometimes(rangeArb(0, 300)),
    buildingYear: sometimes(rangeArb(1850, 2025)),
    numberOfRooms: sometimes(rangeArb(0, 8)),
    daysOnMarket: sometimes(rangeArb(0, 400)),
    startDate: sometimes(
      fc
        .tuple(monthArb, monthArb)
        .map(([a, b]) => (a <= b ? { min: a, max: b } : { min: b, max: a })),
    ),
    radius: sometimes(fc.integer({ min: 1, max: 3_000 })),
    groupBy: fc.oneof(
      fc.constant(undefined),
      fc.record({
        field: fc.constant('start_date' as const),
        period: fc.constantFrom('month' as const, 'quarter' as const, 'year' as const),
      }),
      fc.record({
        field: fc.constantFrom(...METRICS),
        groups: fc.oneof(
          fc.array(valueGroupArb, { minLength: 1, maxLength: 4 }),
          consecutiveGroupsArb,
        ),
      }),
    ),
  })
  .map((r): Request => {
    const filters: Request['filters'] = { [r.division[0] as string]: r.division[1] };
    for (const key of [
      'propertyType',
      'isActive',
      'isNew',
      'isPrivate',
      'livingArea',
      'buildingYear',
      'numberOfRooms',
      'daysOnMarket',
      'startDate',
    ] as const) {
      if (r[key] !== undefined) Object.assign(filters, { [key]: r[key] });
    }
    if (r.dealType !== undefined) filters.dealType = r.dealType;
    // The contract forbids a price range of the other deal type.
    if (r.salePrice !== undefined && r.dealType !== 'rent') filters.salePrice = r.salePrice;
    if (r.rentGross !== undefined && r.dealType !== 'sale') filters.rentGross = r.rentGross;
    if (r.radius !== undefined) {
      filters.radius = r.radius;
      filters.coordinates = { ...CENTER };
    }
    const request: Request = { countryCode: 'AT', statistics: r.statistics, filters };
    // Grouping by start date needs both ends of the period.
    if (r.groupBy && (r.groupBy.field !== 'start_date' || filters.startDate))
      request.groupBy = r.groupBy;
    return request;
  });

// ---- The reference ---------------------------------------------------------------------------

function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const a =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(a));
}

const inRange = (v: number | null, r: Range | undefined) =>
  r === undefined ||
  (v !== null && (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max));

function matches(o: Offer, f: Request['filters']): boolean {
  const month = o.startDate.slice(0, 7);
  return (
    (f.divisionLevel8 === undefined || f.divisionLevel8 === o.division8) &&
    (f.dealType === undefined || f.dealType === o.dealType) &&
    (f.propertyType === undefined || f.propertyType === o.propertyType) &&
    (f.isActive === undefined || f.isActive === o.isActive) &&
    (f.isNew === undefined || f.isNew === o.isNew) &&
    (f.isPrivate === undefined || f.isPrivate === o.isPrivate) &&
    inRange(o.salePrice, f.salePrice) &&
    inRange(o.rentGross, f.rentGross) &&
    inRange(o.livingArea, f.livingArea) &&
    inRange(o.buildingYear, f.buildingYear) &&
    inRange(o.numberOfRooms, f.numberOfRooms) &&
    inRange(o.daysOnMarket, f.daysOnMarket) &&
    (f.startDate?.min === undefined || month >= f.startDate.min) &&
    (f.startDate?.max === undefined || month <= f.startDate.max) &&
    (f.radius === undefined ||
      haversine(CENTER.latitude, CENTER.longitude, o.latitude, o.longitude) <= f.radius)
  );
}

function periodOf(month: string, period: 'month' | 'quarter' | 'year'): string {
  const year = month.slice(0, 4);
  if (period === 'year') return year;
  if (period === 'month') return month;
  return `${year}-Q${Math.ceil(Number(month.slice(5, 7)) / 3)}`;
}

function periodsFrom(min: string, max: string, period: 'month' | 'quarter' | 'year'): string[] {
  const ids: string[] = [];
  for (let y = Number(min.slice(0, 4)), m = Number(min.slice(5, 7)); ; m++) {
    if (m > 12) [y, m] = [y + 1, 1];
    const month = `${y}-${pad(m)}`;
    if (month > max) break;
    const id = periodOf(month, period);
    if (ids.at(-1) !== id) ids.push(id);
  }
  return ids;
}

function quantile(sorted: number[], p: number): number {
  const pos = p * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (pos - lo);
}

function statisticsOf(offers: Offer[], request: Request) {
  return request.statistics.map((s) => {
    const values = offers
      .map((o) => metricValue(o, s.metric))
      .filter((v): v is number => v !== null)
      .sort((a, b) => a - b);
    const n = values.length;
    let value: number | undefined;
    if (s.type === 'count') value = n;
    else if (n >= MIN_SAMPLE) {
      if (s.type === 'mean') value = values.reduce((a, b) => a + b, 0) / n;
      else if (s.type === 'percentile')
        value = quantile(values, (s.parameters?.percentileRank ?? 0) / 100);
      else
        value = (100 * values.filter((v) => v <= (s.parameters?.percentileValue ?? 0)).length) / n;
    }
    return { type: s.type, metric: s.metric, parameters: s.parameters, value };
  });
}

interface ExpectedGroup {
  groupId?: string;
  groupLowerBound?: number;
  groupUpperBound?: number;
  statistics: ReturnType<typeof statisticsOf>;
}

function reference(offers: Offer[], request: Request): ExpectedGroup[] {
  const rows = offers.filter((o) => matches(o, request.filters));
  const { groupBy } = request;
  if (!groupBy) return [{ statistics: statisticsOf(rows, request) }];
  if (groupBy.field === 'start_date') {
    const period = groupBy.period ?? 'month';
    const { min = '', max = '' } = request.filters.startDate ?? {};
    return periodsFrom(min, max, period).map((id) => ({
      groupId: id,
      statistics: statisticsOf(
        rows.filter((o) => periodOf(o.startDate.slice(0, 7), period) === id),
        request,
      ),
    }));
  }
  const field = groupBy.field;
  return (groupBy.groups ?? []).map((g, i) => ({
    groupId: String(i),
    groupLowerBound: g.lowerBound,
    groupUpperBound: g.upperBound,
    statistics: statisticsOf(
      rows.filter((o) => {
        const v = metricValue(o, field);
        return (
          v !== null &&
          (g.lowerBound === undefined || v >= g.lowerBound) &&
          (g.upperBound === undefined || v < g.upperBound)
        );
      }),
      request,
    ),
  }));
}

const closeTo = (actual: number | undefined, expected: number | undefined, relative: number) =>
  actual === expected ||
  (actual !== undefined &&
    expected !== undefined &&
    Math.abs(actual - expected) <= relative * Math.max(Math.abs(expected), 1e-300));
const close = (actual: number | undefined, expected: number | undefined) =>
  closeTo(actual, expected, 1e-9);

// ---- The property ----------------------------------------------------------------------------

const HEADER = [...OFFER_KEY_COLUMNS, ...OFFER_FACT_COLUMNS, 'divisionLevel6', 'divisionLevel8'];

describe('offer statistics agree with an independent reference', () => {
  // Two apps on one data directory: `world` computes in memory (the division slices), `sqlWorld`
  // in SQL (no memory for slices). Both answer every request.
  let world: World;
  let sqlWorld: World;
  const dir = tempDir();
  beforeAll(async () => {
    world = await createWorld('sqlite', { env: { PROPDATA_MIN_SAMPLE: String(MIN_SAMPLE) } });
    sqlWorld = await createWorld('sqlite', {
      env: {
        PROPDATA_MIN_SAMPLE: String(MIN_SAMPLE),
        PROPDATA_DATA_DIR: world.config.dataDir,
        PROPDATA_STATS_CACHE_MB: '0',
      },
    });
  });
  afterAll(async () => {
    await sqlWorld.close();
    await world.close();
  });

  async function load(offers: Offer[]): Promise<void> {
    const rows = offers.map((o) => [
      o.id,
      'AT',
      o.dealType,
      o.propertyType,
      o.startDate,
      o.isActive,
      o.isNew,
      o.isPrivate,
      o.salePrice,
      o.rentGross,
      o.rentNet,
      o.livingArea,
      o.numberOfRooms,
      o.buildingYear,
      o.daysOnMarket,
      o.latitude,
      o.longitude,
      '900',
      o.division8,
    ]);
    const file = writeFile(dir, 'offers.csv', csv(HEADER, rows));
    await importFile(world.config.dataDir, 'offers', path.resolve(file), {
      strict: true,
      replace: true,
      today: '2026-11-21',
    });
    await world.stores.market.refresh();
    await sqlWorld.stores.market.refresh();
  }

  async function answer(app: World, request: Request): Promise<StatisticsResponse['items']> {
    return expectStatus(
      await postAs(app, '/api/v1/offers/statistics', request),
    ).json<StatisticsResponse>().items;
  }

  // Guards against a vacuous property: enough compared values must be real numbers.
  let computedValues = 0;

  it('on random datasets and requests', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        datasetArb,
        fc.array(requestArb, { minLength: 1, maxLength: MAX_REQUESTS }),
        async (offers, requests) => {
          await load(offers);
          for (const request of requests) {
            const items = await answer(world, request);
            const inSql = await answer(sqlWorld, request);
            // In memory and in SQL: the same groups and statistics, values equal to 1e-12.
            expect(items.map((i) => i.groupId)).toEqual(inSql.map((i) => i.groupId));
            items.forEach((item, g) =>
              item.statistics.forEach((stat, i) => {
                const other = inSql[g]?.statistics[i]?.value;
                if (!closeTo(stat.value, other, 1e-12)) {
                  expect.fail(`group ${g} statistic ${i}: in memory ${stat.value}, SQL ${other}`);
                }
              }),
            );
            const expected = reference(offers, request);
            expect(items.length).toBe(expected.length);
            expected.forEach((want, g) => {
              const got = items[g];
              expect(got?.groupId).toBe(want.groupId);
              expect(got?.groupLowerBound).toBe(want.groupLowerBound);
              expect(got?.groupUpperBound).toBe(want.groupUpperBound);
              want.statistics.forEach((s, i) => {
                const actual = got?.statistics[i];
                expect(actual?.type).toBe(s.type);
                expect(actual?.metric).toBe(s.metric);
                expect(actual?.parameters).toEqual(s.parameters);
                if (s.type !== 'count' && s.value !== undefined) computedValues++;
                if (!close(actual?.value, s.value)) {
                  expect.fail(
                    `group ${g} statistic ${i} (${s.type} ${s.metric}): service ${actual?.value}, reference ${s.value}`,
                  );
                }
              });
            });
          }
        },
      ),
      { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
    );

    expect(computedValues).toBeGreaterThan(RUNS);
  });
});
