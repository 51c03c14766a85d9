import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import { snapshotRows } from '../../../test/helpers/market.js';
import { sharedData } from '../../../test/helpers/shared-data.js';
import { importFile } from '../import/run-import.js';
import { DISTANCE_SQL } from '../geo.js';
import { convertViennaPlaces, VIENNA_SOURCES } from './vienna-places.js';

const { path: SOURCE, available } = sharedData('vienna-places', 'pois.csv');

describe.skipIf(!available)('real places of Vienna', () => {
  it('convert and import: every point, stop and district indicator, with the attribution', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'places');
    const result = await convertViennaPlaces(SOURCE, target);
    // The shared README's counts: 14,726 points of interest and 345 pharmacies, 27 indicators
    // of 23 districts; of the 5,122 stop platforms, 548 have no position in the source (0, 0),
    // one has no name, neither of its own nor of its stop, and 6 (of three stops) lie 76–112 km
    // from the city.
    expect(result).toEqual({
      pois: 14_726 + 345,
      transit: 5_122 - 555,
      transitSkipped: 555,
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
    // A stop's platforms (`diva` in the source) share its name ("Stephansplatz U" is a platform
    // of Stephansplatz), so that counted by name each stop counts once; every stop lies within
    // 30 km of the centre; names hold no HTML line breaks or doubled spaces.
    const [checks] = await snapshotRows(
      dataDir,
      `with platforms as (
         select t.name, s.diva from transit_stops t
         join read_csv('${path.join(SOURCE, 'transit-stops.csv')}', all_varchar = true) s
           on s.stop_id = t.id)
       select
         (select count(*)::integer from (select diva from platforms where diva <> ''
            group by diva having count(distinct name) > 1)) as stops_of_two_names,
         (select count(*)::integer from platforms where diva = '60201320') as stephansplatz_platforms,
         (select list(distinct name) from platforms where diva = '60201320') as stephansplatz,
         (select max(${DISTANCE_SQL.replaceAll('$lat', '48.2085').replaceAll('$lon', '16.3731')})
            from transit_stops) as farthest,
         (select count(*)::integer from pois where name like '%<br%' or name like '%  %') as unclean`,
    );
    expect(checks).toMatchObject({
      stops_of_two_names: 0,
      stephansplatz: ['Stephansplatz'],
      unclean: 0,
    });
    expect(checks?.stephansplatz_platforms).toBe(7);
    expect(checks?.farthest).toBeLessThan(30_000);
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
      { t: 'transit', source: VIENNA_SOURCES.transit, n: 5_122 - 555 },
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
