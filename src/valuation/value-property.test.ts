import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/backends.js';
import {
  csv,
  demoMarket,
  OFFER_KEY_COLUMNS,
  publishCopyOfMarket,
  referenceDataDir,
  writeFile,
} from '../../test/helpers/market.js';
import { openDuck, queryRows } from '../market/duck.js';
import { importFile } from '../market/import/run-import.js';
import { currentSnapshot, marketPaths } from '../market/snapshots.js';
import { InsufficientDataError } from './errors.js';
import { runBacktest } from './backtest.js';
import type { PropertyToValue, ValuationRequest } from './types.js';
import { valueProperty } from './value-property.js';

const TODAY = '2026-11-21';
const DEMO = { offers: 40_000, projects: 10, seed: 3, today: TODAY };

async function open(dataDir: string): Promise<{ instance: DuckDBInstance; db: DuckDBConnection }> {
  const file = currentSnapshot(marketPaths(dataDir));
  if (!file) throw new Error('no snapshot');
  const instance = await openDuck(file, { readOnly: true });
  return { instance, db: await instance.connect() };
}

/**
 * A flat where the first German sale offer of flats in `order` is, of that offer's size; in
 * München, where the demo market is dense enough to value any date of the last years.
 */
async function flatAtOffer(db: DuckDBConnection, order: string): Promise<PropertyToValue> {
  const [offer] = await queryRows(
    db,
    `select latitude, longitude, living_area from offers
     where country_code = 'DE' and deal_type = 'sale' and property_type = 'apartment'
       and latitude between 48.08 and 48.19 and longitude between 11.5 and 11.66
     order by ${order} limit 1`,
  );
  return {
    countryCode: 'DE',
    propertyType: 'apartment',
    latitude: Number(offer?.latitude),
    longitude: Number(offer?.longitude),
    locationPrecision: 'exact',
    livingArea: Number(offer?.living_area),
  };
}

describe('valueProperty on generated demo data', () => {
  let dataDir: string;
  let instance: DuckDBInstance;
  let db: DuckDBConnection;

  beforeAll(async () => {
    dataDir = await demoMarket(DEMO);
    ({ instance, db } = await open(dataDir));
  });
  afterAll(() => {
    db.closeSync();
    instance.closeSync();
  });

  it('records the true value of every offer and the listing noise', async () => {
    const [row] = await queryRows(
      db,
      `select count(*)::integer as n, count(t.id)::integer as with_truth from offers o
       left join offer_truth t using (country_code, id)`,
    );
    expect(row).toEqual({ n: 40_000, with_truth: 40_000 });
    const noise = await queryRows(
      db,
      "select key, value::double as v from snapshot_info where key like 'listing_noise.%' order by key",
    );
    expect(noise.map((r) => r.key)).toEqual(['listing_noise.rent', 'listing_noise.sale']);
    expect(Number(noise[1]?.v)).toBeGreaterThan(0.1);
    expect(Number(noise[1]?.v)).toBeLessThan(0.14);
  });

  it('gives finite values inside their ranges, near the truth, in the main currency', async () => {
    const report = await runBacktest(db, { sample: 150, seed: 5 });
    expect(report.valued).toBeGreaterThan(75);
    expect(report.truth).toBe('recorded');
    expect(report.overall.mdape).toBeLessThan(0.12);
    expect(report.overall.coverage).toBeGreaterThan(0.5);
    expect(report.overall.coverage).toBeLessThan(0.9);

    const property: PropertyToValue = {
      ...(await flatAtOffer(db, 'start_date desc, id')),
      livingArea: 80,
      buildingYear: 1975,
    };
    for (const dealType of ['sale', 'rent'] as const) {
      const v = await valueProperty(db, { property, dealType, date: '2026-11-01' });
      expect(v.currency).toBe('EUR');
      expect(Number.isFinite(v.value) && v.value > 0).toBe(true);
      expect(v.valueRange.lower).toBeLessThanOrEqual(v.value);
      expect(v.valueRange.upper).toBeGreaterThanOrEqual(v.value);
      expect(v.salePriceRange.lower).toBeLessThanOrEqual(v.salePrice);
      expect(['poor', 'medium', 'good']).toContain(v.confidence);
      if (dealType === 'rent') {
        // Monthly rent is a small fraction of the sale price (gross yields of a few percent).
        expect(v.value * 12).toBeGreaterThan(v.salePrice * 0.02);
        expect(v.value * 12).toBeLessThan(v.salePrice * 0.1);
      }
    }
  });

  it('is more accurate where it says good than where it says medium or poor', async () => {
    const report = await runBacktest(db, { sample: 300, seed: 9 });
    const { good, medium, poor } = report.byConfidence;
    expect(good.count).toBeGreaterThan(20);
    expect(medium.count).toBeGreaterThanOrEqual(10);
    expect(good.mdape).toBeLessThan(medium.mdape);
    if (poor.count >= 10) expect(medium.mdape).toBeLessThan(poor.mdape);
  });

  it('gives the same valuations asked at once on one connection as one after another', async () => {
    const rows = await queryRows(
      db,
      `select country_code, property_type, latitude, longitude, living_area from offers
       where latitude is not null
         and (country_code, postal_code) in (
           select (country_code, postal_code) from offers group by all having count(*) >= 50)
       order by hash(id) limit 12`,
    );
    const requests: ValuationRequest[] = rows.flatMap((r, i) =>
      ['2023-02-10', TODAY, '2024-09-30'].map((date) => ({
        property: {
          countryCode: String(r.country_code) as PropertyToValue['countryCode'],
          propertyType: String(r.property_type) as PropertyToValue['propertyType'],
          latitude: Number(r.latitude),
          longitude: Number(r.longitude),
          locationPrecision: 'exact' as const,
          livingArea: Number(r.living_area),
        },
        dealType: i % 2 === 0 ? ('sale' as const) : ('rent' as const),
        date,
      })),
    );
    const value = (request: ValuationRequest) =>
      valueProperty(db, request).catch((e: unknown) => e);
    const inTurn: unknown[] = [];
    for (const request of requests) inTurn.push(await value(request));
    // Their queries take turns on the connection (src/market/duck.ts); without that, a query
    // started while another is pending breaks it, or runs with the other's values.
    const atOnce = await Promise.all(requests.map(value));
    expect(atOnce).toEqual(inTurn);
    // Offers of busy postcodes, so nearly all are values (a refusal must be the same too).
    expect(rows).toHaveLength(12);
    expect(inTurn.filter((v) => !(v instanceof Error)).length).toBeGreaterThan(30);
  });

  it('refuses to value where there is no data', async () => {
    const property: PropertyToValue = {
      countryCode: 'FR',
      propertyType: 'apartment',
      latitude: 45.5,
      longitude: -4.5,
      locationPrecision: 'exact',
      livingArea: 70,
    };
    const error = await valueProperty(db, { property, dealType: 'sale', date: TODAY }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InsufficientDataError);
  });
});

describe('valueProperty and the valuation date', () => {
  it('is not moved by an offer published after the date, and is by one before it', async () => {
    // A copy of the file's demo market, which this test changes.
    const dataDir = referenceDataDir();
    publishCopyOfMarket(await demoMarket(DEMO), dataDir);
    const first = await open(dataDir);
    const property = await flatAtOffer(first.db, 'id');
    const request: ValuationRequest = { property, dealType: 'sale', date: '2026-06-15' };
    const before = await valueProperty(first.db, request);
    first.db.closeSync();
    first.instance.closeSync();

    const dir = tempDir();
    const wild = (id: string, startDate: string) => [
      id,
      'DE',
      'sale',
      'apartment',
      startDate,
      1e9,
      property.livingArea,
      property.latitude,
      property.longitude,
    ];
    const header = [...OFFER_KEY_COLUMNS, 'salePrice', 'livingArea', 'latitude', 'longitude'];
    await importFile(
      dataDir,
      'offers',
      writeFile(dir, 'later.csv', csv(header, [wild('wild-later', '2026-06-16')])),
      { today: TODAY },
    );
    const later = await open(dataDir);
    const after = await valueProperty(later.db, request);
    later.db.closeSync();
    later.instance.closeSync();
    // (The range may differ: an offers import drops the demo truth and its listing noise.)
    expect(after.value).toBe(before.value);
    expect(after.salePrice).toBe(before.salePrice);

    // The same offer on the date itself is used (so the check above could fail).
    await importFile(
      dataDir,
      'offers',
      writeFile(
        dir,
        'same.csv',
        csv(
          header,
          Array.from({ length: 12 }, (_, i) => wild(`wild-${i}`, '2026-06-15')),
        ),
      ),
      { today: TODAY },
    );
    const same = await open(dataDir);
    const moved = await valueProperty(same.db, request);
    same.db.closeSync();
    same.instance.closeSync();
    expect(moved.value).not.toEqual(before.value);
  });
});
