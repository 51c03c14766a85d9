import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import { csv, snapshotRows, writeFile } from '../../../test/helpers/market.js';
import { POI_CATEGORY_NAMES } from '../places/categories.js';
import { importFile, StrictImportError } from './run-import.js';

const POI_HEADER = [
  'id',
  'countryCode',
  'category',
  'subcategory',
  'name',
  'latitude',
  'longitude',
];

describe('places imports', () => {
  it('imports points of interest, refusing bad rows with their line and unknown categories with the list', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    const file = writeFile(
      dir,
      'pois.csv',
      csv(POI_HEADER, [
        ['p1', 'AT', 'pharmacy', null, 'Apotheke 1', 48.2, 16.37],
        ['p2', 'at', 'cafe', 'vegan', ' Café 2 ', 48.21, 16.38],
        ['p3', 'AT', 'casino', null, 'Casino', 48.2, 16.37],
        ['p4', 'AT', 'school', null, null, 91, 16.37],
        ['p5', 'XX', 'school', null, null, 48.2, 16.37],
        ['p1', 'AT', 'pharmacy', null, 'Apotheke 1 (moved)', 48.25, 16.4],
      ]),
    );
    const report = await importFile(dataDir, 'pois', file);
    expect(report).toMatchObject({ read: 6, imported: 2, rejected: 3, total: 2 });
    expect(report.rejections).toEqual([
      {
        line: 4,
        reason: `category "casino" is not one of ${POI_CATEGORY_NAMES.join(', ')}`,
      },
      { line: 5, reason: 'latitude "91" must be at most 90' },
      expect.objectContaining({ line: 6 }),
    ]);
    const rows = await snapshotRows(dataDir, 'select * from pois order by id');
    // The last row of an id wins; names trimmed; the country in capitals.
    expect(rows).toEqual([
      {
        country_code: 'AT',
        id: 'p1',
        category: 'pharmacy',
        subcategory: null,
        name: 'Apotheke 1 (moved)',
        latitude: 48.25,
        longitude: 16.4,
        // The file has no source column: no attribution.
        source: null,
      },
      {
        country_code: 'AT',
        id: 'p2',
        category: 'cafe',
        subcategory: 'vegan',
        name: 'Café 2',
        latitude: 48.21,
        longitude: 16.38,
        source: null,
      },
    ]);

    // Another import adds (same id: replaced) unless --replace; --strict changes nothing.
    const more = writeFile(
      dir,
      'more.csv',
      csv(POI_HEADER, [['p9', 'AT', 'park', null, 'Park', 48.3, 16.3]]),
    );
    expect((await importFile(dataDir, 'pois', more)).total).toBe(3);
    expect((await importFile(dataDir, 'pois', more, { replace: true })).total).toBe(1);
    await expect(importFile(dataDir, 'pois', file, { strict: true })).rejects.toBeInstanceOf(
      StrictImportError,
    );
    expect(await snapshotRows(dataDir, 'select id from pois')).toEqual([{ id: 'p9' }]);
  });

  it('imports transit stops and keeps the other tables', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    await importFile(
      dataDir,
      'pois',
      writeFile(dir, 'p.csv', csv(POI_HEADER, [['p1', 'AT', 'park', null, 'Park', 48.2, 16.3]])),
    );
    const report = await importFile(
      dataDir,
      'transit',
      writeFile(
        dir,
        't.csv',
        csv(
          ['id', 'countryCode', 'name', 'mode', 'latitude', 'longitude'],
          [
            ['s1', 'AT', 'Stephansplatz', 'subway', 48.2083, 16.3731],
            ['s2', 'AT', 'Karlsplatz', null, 48.2005, 16.3699],
            ['s3', 'AT', 'Nowhere', 'zeppelin', 48.2, 16.37],
            ['s4', 'AT', null, null, 48.2, 16.37],
          ],
        ),
      ),
    );
    expect(report).toMatchObject({ imported: 2, rejected: 2, total: 2 });
    expect(report.rejections.map((r) => r.reason)).toEqual([
      'mode "zeppelin" is not one of subway, tram, bus, rail, ferry, other',
      'name is missing',
    ]);
    expect(await snapshotRows(dataDir, 'select count(*)::integer as n from pois')).toEqual([
      { n: 1 },
    ]);
  });

  it('attaches indicators to divisions the data knows, of any level', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    const report = await importFile(
      dataDir,
      'indicators',
      writeFile(
        dir,
        'i.csv',
        csv(
          ['countryCode', 'level', 'divisionId', 'indicator', 'year', 'value', 'unit'],
          [
            ['AT', 8, '901', 'population', 2025, 16_500, 'persons'],
            ['AT', 100, '1010', 'avg_age', 2025, 47.4, 'years'],
            ['AT', 8, '999', 'population', 2025, 1, null],
            ['AT', 7, '901', 'population', 2025, 1, null],
            ['AT', 8, '901', 'population', 'soon', 1, null],
          ],
        ),
      ),
    );
    expect(report).toMatchObject({ imported: 2, rejected: 3 });
    expect(report.rejections.map((r) => r.reason)).toEqual([
      'divisionId "999" is not a division of level 8 of AT',
      'level "7" is not one of 6, 8, 100',
      'year "soon" is not an integer',
    ]);
    expect(
      await snapshotRows(
        dataDir,
        'select level, division_id, value from indicators order by level',
      ),
    ).toEqual([
      { level: 8, division_id: '901', value: 16_500 },
      { level: 100, division_id: '1010', value: 47.4 },
    ]);
  });
});
