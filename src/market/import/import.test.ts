import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import {
  convertWithDuckDb,
  csv,
  referenceDataDir,
  snapshotRows,
  writeFile,
  OFFER_KEY_COLUMNS,
  PROJECT_COLUMNS,
} from '../../../test/helpers/market.js';
import { currentSnapshot, marketPaths } from '../snapshots.js';
import { importFile, StrictImportError } from './run-import.js';
import { ImportFileError } from './source.js';

const TODAY = '2026-11-21';
const HEADER = [
  ...OFFER_KEY_COLUMNS,
  'endDate',
  'salePrice',
  'rentGross',
  'livingArea',
  'latitude',
  'longitude',
  'postalCode',
  'isNew',
  'title',
];

type Cell = string | number | null;

/** A row of HEADER: a valid 50 m² apartment in Vienna for sale at 1, with the named fields changed. */
function offer(id: string, changes: Record<string, Cell> = {}): Cell[] {
  const fields: Record<string, Cell> = {
    id,
    countryCode: 'AT',
    dealType: 'sale',
    propertyType: 'apartment',
    startDate: '2025-01-01',
    endDate: null,
    salePrice: 1,
    rentGross: null,
    livingArea: 50,
    latitude: null,
    longitude: null,
    postalCode: '1010',
    isNew: null,
    title: 'x',
    ...changes,
  };
  const unknown = Object.keys(fields).filter((column) => !HEADER.includes(column));
  if (unknown.length > 0) throw new Error(`not a column of HEADER: ${unknown.join(', ')}`);
  return HEADER.map((column) => fields[column] ?? null);
}

const GOOD = [
  offer('a1', {
    startDate: '2024-01-15',
    endDate: '2024-03-01',
    salePrice: 350000,
    livingArea: 70.5,
    isNew: 'true',
    title: 'Flat',
  }),
  offer('a2', {
    countryCode: 'at',
    dealType: 'rent',
    propertyType: 'house',
    startDate: '2026-10-01',
    salePrice: null,
    rentGross: 1200,
    livingArea: 55,
    latitude: 48.2077,
    longitude: 16.3705,
    postalCode: null,
    isNew: 'no',
    title: 'House',
  }),
  offer('c1', {
    countryCode: 'CZ',
    startDate: '2025-05-05',
    salePrice: 5_000_000,
    livingArea: 60,
    postalCode: '100 00',
    title: 'Byt',
  }),
];

const offerColumns = `id, country_code, deal_type, property_type, start_date::varchar as start_date,
  end_date::varchar as end_date, is_active, is_new, sale_price, rent_gross, living_area, postal_code,
  division_level6, division_level8, division_level100, days_on_market, title`;

describe('offer import', () => {
  let dir: string;
  let dataDir: string;
  beforeEach(() => {
    dir = tempDir();
    dataDir = referenceDataDir();
  });

  const offers = () =>
    snapshotRows(dataDir, `select ${offerColumns} from offers order by country_code, id`);

  it('reads CSV, NDJSON and Parquet, plain or gzip-compressed, to the same rows', async () => {
    const source = writeFile(dir, 'offers.csv', csv(HEADER, GOOD));
    const gz = path.join(dir, 'offers.csv.gz');
    fs.writeFileSync(gz, execFileSync('gzip', ['-c', source]));
    const parquet = path.join(dir, 'offers.parquet');
    await convertWithDuckDb(source, parquet, 'parquet');
    const ndjson = path.join(dir, 'offers.ndjson');
    await convertWithDuckDb(source, ndjson, 'json');
    const ndjsonGz = path.join(dir, 'offers.ndjson.gz');
    await convertWithDuckDb(source, ndjsonGz, 'json', true);

    const results = [];
    for (const file of [source, gz, parquet, ndjson, ndjsonGz]) {
      dataDir = referenceDataDir();
      const report = await importFile(dataDir, 'offers', file, { today: TODAY });
      expect(report, file).toMatchObject({ read: 3, imported: 3, rejected: 0, total: 3 });
      results.push(await offers());
    }
    for (const rows of results.slice(1)) expect(rows).toEqual(results[0]);
    expect(results[0]).toEqual([
      {
        id: 'a1',
        country_code: 'AT',
        deal_type: 'sale',
        property_type: 'apartment',
        start_date: '2024-01-15',
        end_date: '2024-03-01',
        is_active: false,
        is_new: true,
        sale_price: 350000,
        rent_gross: null,
        living_area: 70.5,
        postal_code: '1010',
        division_level6: '900',
        division_level8: '901',
        division_level100: '1010',
        days_on_market: 46,
        title: 'Flat',
      },
      {
        // No postcode: placed by the nearest postcode to its coordinates (1010's centroid).
        id: 'a2',
        country_code: 'AT',
        deal_type: 'rent',
        property_type: 'house',
        start_date: '2026-10-01',
        end_date: null,
        is_active: true,
        is_new: false,
        sale_price: null,
        rent_gross: 1200,
        living_area: 55,
        postal_code: '1010',
        division_level6: '900',
        division_level8: '901',
        division_level100: '1010',
        days_on_market: 51,
        title: 'House',
      },
      {
        // "100 00" and "10000" are one postcode; CZ has no level 8 in the reference data.
        id: 'c1',
        country_code: 'CZ',
        deal_type: 'sale',
        property_type: 'apartment',
        start_date: '2025-05-05',
        end_date: null,
        is_active: true,
        is_new: null,
        sale_price: 5_000_000,
        rent_gross: null,
        living_area: 60,
        postal_code: '100 00',
        division_level6: '52',
        division_level8: null,
        division_level100: '10000',
        days_on_market: 565,
        title: 'Byt',
      },
    ]);
  });

  it('takes days on market from a file that has the column, an empty cell as unknown', async () => {
    // Without the column (the test above), they are counted from startDate to endDate or today.
    const header = [...HEADER, 'daysOnMarket'];
    const source = writeFile(
      dir,
      'offers.csv',
      csv(header, [
        [...offer('d1', { endDate: '2025-03-01' }), 12],
        [...offer('d2', { endDate: '2025-01-01' }), null],
      ]),
    );
    expect(await importFile(dataDir, 'offers', source, { today: TODAY })).toMatchObject({
      imported: 2,
    });
    expect((await offers()).map((o) => [o.id, o.days_on_market])).toEqual([
      ['d1', 12],
      ['d2', null],
    ]);
  });

  it('skips invalid rows and reports each with its line and reason', async () => {
    const rows = [
      ...GOOD,
      offer('b1', { dealType: 'lease' }),
      offer('b2', { startDate: '2025-02-30' }),
      offer('b3', { salePrice: -5 }),
      offer('b4', { countryCode: 'XX' }),
      offer('b5', { latitude: 91, longitude: 16, postalCode: null }),
      offer('b6', { livingArea: -3 }),
      offer('b7', { postalCode: '99999' }),
      offer('b8', { endDate: '2024-01-01' }),
      offer('b9', { startDate: '2027-01-01' }),
      offer('b10', { dealType: 'rent', salePrice: null }),
      offer('b11', { propertyType: 'castle' }),
      offer('b12', { isNew: 'maybe' }),
      offer('b13', { salePrice: 'lots' }),
      // Coordinates with no postcode of the country near them (at sea).
      offer('b14', { postalCode: '99999', latitude: 0, longitude: 0 }),
      offer('b15', { postalCode: null, latitude: 0, longitude: 0 }),
    ];
    const file = writeFile(dir, 'offers.csv', csv(HEADER, rows));
    const report = await importFile(dataDir, 'offers', file, { today: TODAY });
    expect(report).toMatchObject({ read: 18, imported: 3, rejected: 15, total: 3 });
    expect(report.rejections).toEqual([
      { line: 5, reason: 'dealType "lease" is not one of sale, rent' },
      { line: 6, reason: 'startDate "2025-02-30" is not a date (YYYY-MM-DD)' },
      { line: 7, reason: 'salePrice "-5" must be at least 0' },
      { line: 8, reason: 'countryCode "XX" is not one of AT, BE, CH, CZ, DE, FR, NL, SK' },
      { line: 9, reason: 'latitude "91" must be at most 90' },
      { line: 10, reason: 'livingArea "-3" must be at least 0' },
      {
        line: 11,
        reason: 'postalCode "99999" is unknown for AT and no coordinates place the offer',
      },
      { line: 12, reason: 'endDate is before startDate' },
      { line: 13, reason: 'startDate is in the future' },
      { line: 14, reason: 'a rent offer needs rentGross or rentNet' },
      { line: 15, reason: 'propertyType "castle" is not one of apartment, house' },
      { line: 16, reason: 'isNew "maybe" is not a boolean' },
      { line: 17, reason: 'salePrice "lots" is not a number' },
      {
        line: 18,
        reason:
          'postalCode "99999" is unknown for AT and no postcode of AT lies near its coordinates (within about 11 km)',
      },
      {
        line: 19,
        reason:
          'no postcode of AT lies near its coordinates (within about 11 km), and it has no postalCode or division ids',
      },
    ]);
  });

  it('--strict refuses the whole file and changes nothing', async () => {
    await importFile(dataDir, 'offers', writeFile(dir, 'good.csv', csv(HEADER, GOOD)), {
      today: TODAY,
    });
    const before = currentSnapshot(marketPaths(dataDir));
    const bad = writeFile(
      dir,
      'bad.csv',
      csv(HEADER, [
        offer('n1', { title: 'ok' }),
        offer('n2', { startDate: 'yesterday', title: 'bad' }),
      ]),
    );
    const error = await importFile(dataDir, 'offers', bad, { today: TODAY, strict: true }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StrictImportError);
    expect((error as StrictImportError).report.rejections).toEqual([
      { line: 3, reason: 'startDate "yesterday" is not a date (YYYY-MM-DD)' },
    ]);
    expect(currentSnapshot(marketPaths(dataDir))).toBe(before);
    expect((await offers()).map((r) => r.id)).toEqual(['a1', 'a2', 'c1']);
    expect(
      fs.readdirSync(path.join(dataDir, 'market')).filter((f) => f.endsWith('.duckdb')),
    ).toHaveLength(2);
  });

  it('adds rows and replaces those with an existing (countryCode, id); --replace replaces all', async () => {
    await importFile(dataDir, 'offers', writeFile(dir, 'one.csv', csv(HEADER, GOOD)), {
      today: TODAY,
    });
    const update = writeFile(
      dir,
      'two.csv',
      csv(HEADER, [
        offer('a2', {
          dealType: 'rent',
          propertyType: 'house',
          startDate: '2026-10-01',
          salePrice: null,
          rentGross: 1500,
          livingArea: 55,
          latitude: 48.2077,
          longitude: 16.3705,
          postalCode: null,
          isNew: 'no',
          title: 'Updated',
        }),
        offer('a3', {
          propertyType: 'house',
          startDate: '2026-01-01',
          salePrice: 900000,
          livingArea: 150,
          postalCode: '1020',
          title: 'New',
        }),
        offer('a1', {
          countryCode: 'DE',
          propertyType: 'house',
          startDate: '2026-01-01',
          salePrice: 400000,
          livingArea: 150,
          postalCode: '10115',
          title: 'Same id, other country',
        }),
      ]),
    );
    const report = await importFile(dataDir, 'offers', update, { today: TODAY });
    expect(report).toMatchObject({ imported: 3, total: 5 });
    const rows = await offers();
    expect(rows.map((r) => `${String(r.country_code)}/${String(r.id)}:${String(r.title)}`)).toEqual(
      ['AT/a1:Flat', 'AT/a2:Updated', 'AT/a3:New', 'CZ/c1:Byt', 'DE/a1:Same id, other country'],
    );
    expect(rows.find((r) => r.id === 'a2')?.rent_gross).toBe(1500);

    await importFile(dataDir, 'offers', update, { today: TODAY, replace: true });
    expect((await offers()).map((r) => r.id)).toEqual(['a2', 'a3', 'a1']);
  });

  it('keeps explicit division ids and refuses unknown ones', async () => {
    const header = [...HEADER, 'divisionLevel6', 'divisionLevel8'];
    const file = writeFile(
      dir,
      'div.csv',
      csv(header, [
        [...offer('d1', { postalCode: null }), '101', '10101'],
        [...offer('d2', { postalCode: null }), null, '99999'],
      ]),
    );
    const report = await importFile(dataDir, 'offers', file, { today: TODAY });
    expect(report.rejections).toEqual([
      { line: 3, reason: 'divisionLevel8 "99999" is not a known level-8 division of AT' },
    ]);
    expect(await offers()).toMatchObject([
      { id: 'd1', division_level6: '101', division_level8: '10101', division_level100: null },
    ]);
  });

  it('refuses files with unknown or missing columns, or an unknown format, before touching data', async () => {
    const typo = writeFile(
      dir,
      'typo.csv',
      'id,countryCode,dealType,propertyType,startDate,salesPrice\n',
    );
    await expect(importFile(dataDir, 'offers', typo)).rejects.toThrow(/unknown column salesPrice/);
    const missing = writeFile(dir, 'missing.csv', 'id,countryCode,dealType\n');
    await expect(importFile(dataDir, 'offers', missing)).rejects.toThrow(
      /missing required column propertyType, startDate/,
    );
    const xml = writeFile(dir, 'offers.xml', '<offers/>');
    await expect(importFile(dataDir, 'offers', xml)).rejects.toThrow(ImportFileError);
  });
});

describe('project and division import', () => {
  it('imports building projects with validation and upsert', async () => {
    const dir = tempDir();
    const dataDir = referenceDataDir();
    const file = writeFile(
      dir,
      'p.csv',
      csv(PROJECT_COLUMNS, [
        ['DE', 'p1', 'Spreeufer', 52.5, 13.4, '10115', 'planned', 120, 2026, 2028, true, false],
        ['DE', 'p2', 'Bad', 52.5, 13.4, null, 'demolished', 10, 2020, 2022, true, false],
        ['DE', 'p3', 'Backwards', 52.5, 13.4, null, 'completed', 10, 2022, 2020, true, false],
      ]),
    );
    const report = await importFile(dataDir, 'projects', file);
    expect(report).toMatchObject({ imported: 1, rejected: 2, total: 1 });
    expect(report.rejections.map((r) => r.reason)).toEqual([
      'status "demolished" is not one of planned, under_construction, completed',
      'completionYear is before constructionStartYear',
    ]);
    expect(
      await snapshotRows(
        dataDir,
        'select id, name, status, number_of_units, is_residential from projects',
      ),
    ).toEqual([
      {
        id: 'p1',
        name: 'Spreeufer',
        status: 'planned',
        number_of_units: 120,
        is_residential: true,
      },
    ]);
  });

  it('adds and updates divisions on top of the shipped reference', async () => {
    const dir = tempDir();
    const dataDir = referenceDataDir();
    const file = writeFile(
      dir,
      'd.csv',
      csv(
        ['countryCode', 'level', 'id', 'name', 'level6Id', 'level8Id', 'latitude', 'longitude'],
        [
          ['AT', 100, '1010', 'Innere Stadt (renamed)', '900', '901', 48.2, 16.37],
          ['AT', 7, 'x', 'bad level', null, null, null, null],
        ],
      ),
    );
    const before = await importFile(dataDir, 'divisions', file);
    expect(before).toMatchObject({ imported: 1, rejected: 1 });
    const rows = await snapshotRows(
      dataDir,
      `select name from divisions where country_code = 'AT' and level = 100 and id = '1010'`,
    );
    expect(rows).toEqual([{ name: 'Innere Stadt (renamed)' }]);
    const total = await snapshotRows(dataDir, 'select count(*)::integer as n from divisions');
    expect(total[0]?.n).toBe(before.total);
    expect(before.total).toBeGreaterThan(39_000);
  });
});

describe('README example files', () => {
  it.each([
    ['offers', 'examples/offers.csv', 5],
    ['offers', 'examples/offers.ndjson', 2],
    ['projects', 'examples/projects.csv', 2],
    ['divisions', 'examples/divisions.csv', 3],
    ['pois', 'examples/pois.csv', 3],
    ['transit', 'examples/transit.csv', 2],
    ['indicators', 'examples/indicators.csv', 3],
  ] as const)('%s %s imports with --strict', async (entity, file, rows) => {
    const report = await importFile(referenceDataDir(), entity, path.resolve(file), {
      strict: true,
    });
    expect(report).toMatchObject({ read: rows, imported: rows, rejected: 0 });
  });
});
