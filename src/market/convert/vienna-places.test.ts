import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import { snapshotRows } from '../../../test/helpers/market.js';
import { sharedData } from '../../../test/helpers/shared-data.js';
import { importFile } from '../import/run-import.js';
import { convertViennaPlaces, VIENNA_SOURCES } from './vienna-places.js';

const { path: SOURCE, available } = sharedData('vienna-places', 'pois.csv');

describe.skipIf(!available)('real places of Vienna', () => {
  it('convert and import: every point, stop and district indicator, with the attribution', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'places');
    const result = await convertViennaPlaces(SOURCE, target);
    // The shared README's counts: 14,726 points of interest and 345 pharmacies, 27 indicators
    // of 23 districts; of the 5,122 stop platforms, 548 have no position in the source (0, 0)
    // and one has no name, neither of its own nor of its stop.
    expect(result).toEqual({
      pois: 14_726 + 345,
      transit: 5_122 - 549,
      transitSkipped: 549,
      indicators: 621,
    });
    expect(fs.readFileSync(path.join(target, 'ATTRIBUTION.txt'), 'utf8')).toContain(
      'Datenquelle: Wiener Linien',
    );

    const dataDir = path.join(dir, 'data');
    for (const [entity, file] of [
      ['pois', 'pois.csv'],
      ['transit', 'transit.csv'],
      ['indicators', 'indicators.csv'],
    ] as const) {
      const report = await importFile(dataDir, entity, path.join(target, file), { strict: true });
      expect(report.rejected).toBe(0);
    }
    expect(
      await snapshotRows(
        dataDir,
        `select category, count(*)::integer as n from pois
         where category in ('pharmacy', 'kindergarten', 'restaurant') group by all order by 1`,
      ),
    ).toEqual([
      { category: 'kindergarten', n: 1_676 },
      { category: 'pharmacy', n: 345 },
      { category: 'restaurant', n: 3_018 },
    ]);
    expect(
      await snapshotRows(
        dataDir,
        "select count(*)::integer as n from transit_stops where name = 'Stephansplatz'",
      ),
    ).toEqual([{ n: expect.any(Number) as number }]);
    // Each row carries its source's attribution: the City's, OpenStreetMap's, Wiener Linien's.
    expect(
      await snapshotRows(
        dataDir,
        `select 'pois' as t, source, count(*)::integer as n from pois group by all
         union all select 'transit', source, count(*)::integer from transit_stops group by all
         union all select 'indicators', source, count(*)::integer from indicators group by all
         order by t, source`,
      ),
    ).toEqual([
      { t: 'indicators', source: VIENNA_SOURCES.city, n: 621 },
      { t: 'pois', source: VIENNA_SOURCES.city, n: 14_726 - 8_554 + 345 },
      { t: 'pois', source: VIENNA_SOURCES.osm, n: 8_554 },
      { t: 'transit', source: VIENNA_SOURCES.transit, n: 5_122 - 549 },
    ]);
    // Districts 1–23 are the level-8 divisions 901–923.
    expect(
      await snapshotRows(
        dataDir,
        `select min(division_id) as first, max(division_id) as last,
           count(distinct division_id)::integer as districts
         from indicators where level = 8 and indicator = 'population'`,
      ),
    ).toEqual([{ first: '901', last: '923', districts: 23 }]);
  });
});
