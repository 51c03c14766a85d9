import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import { csv, referenceDataDir, snapshotRows, writeFile } from '../../../test/helpers/market.js';
import { COUNTRIES } from '../countries.js';
import { importFile } from '../import/run-import.js';
import { POI_CATEGORIES, POI_GROUPS } from '../places/categories.js';
import { isSocioIndicator } from '../places/indicators.js';
import { generateDemoData } from './generate.js';
import { DEMO_INDICATORS, POIS_PER_1000, POPULATION_MILLIONS } from './places-model.js';

const TODAY = '2026-11-21';

/** One hash over every row of the generated places, per table. */
const placesFingerprint = (dataDir: string) =>
  snapshotRows(
    dataDir,
    `select
       (select count(*)::integer from pois) as pois,
       (select sum(hash(t))::varchar from pois t) as poi_hash,
       (select sum(hash(t))::varchar from transit_stops t) as stop_hash,
       (select sum(hash(t))::varchar from indicators t) as indicator_hash`,
  );

describe('demo places', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = referenceDataDir();
    await generateDemoData(dataDir, { offers: 2000, projects: 0, seed: 7, today: TODAY });
  });

  it('has points of interest of every group, stops and indicators of every group in every country', async () => {
    const pois = await snapshotRows(
      dataDir,
      `select country_code, category, count(*)::integer as n,
         bool_and(starts_with(id, 'demo-poi-') and starts_with(name, 'Demo ')
           and source = 'Demo data (generated, not real)') as marked
       from pois group by all`,
    );
    for (const country of COUNTRIES) {
      const groups = new Set(
        pois
          .filter((r) => r.country_code === country && Number(r.n) > 0)
          .map((r) => POI_CATEGORIES[String(r.category) as keyof typeof POI_CATEGORIES]),
      );
      expect([...groups].sort(), country).toEqual([...POI_GROUPS].sort());
    }
    expect(pois.every((r) => r.marked === true)).toBe(true);

    const stops = await snapshotRows(
      dataDir,
      `select country_code, count(*)::integer as n,
         bool_and(starts_with(id, 'demo-stop-') and starts_with(name, 'Demo stop ')
           and source = 'Demo data (generated, not real)') as marked
       from transit_stops group by all order by all`,
    );
    expect(stops.map((r) => r.country_code)).toEqual([...COUNTRIES]);
    expect(stops.every((r) => r.marked === true && Number(r.n) > 1000)).toBe(true);

    const indicators = await snapshotRows(
      dataDir,
      `select country_code, list(distinct indicator order by indicator) as names,
         count(*) filter (where unit is null or year is null
           or source is distinct from 'Demo data (generated, not real)')::integer as incomplete
       from indicators group by all order by all`,
    );
    const names = DEMO_INDICATORS.map((i) => i.name).sort();
    expect(indicators.map((r) => r.country_code)).toEqual([...COUNTRIES]);
    for (const row of indicators) {
      expect(row.names, String(row.country_code)).toEqual(names);
      // Every generated indicator has a label in the reports' seven languages.
      for (const name of names) expect(isSocioIndicator(name), name).toBe(true);
      expect(row.incomplete).toBe(0);
    }
    expect(new Set(DEMO_INDICATORS.map((i) => i.group))).toEqual(
      new Set(['demographics', 'economics', 'housing']),
    );
    const [info] = await snapshotRows(
      dataDir,
      "select value from snapshot_info where key = 'places.generated'",
    );
    expect(String(info?.value)).toMatch(/^demo data, generated with seed 7/);
  });

  it('draws as many places as the population and the rates say, far denser in cities', async () => {
    const perCountry = await snapshotRows(
      dataDir,
      'select country_code, count(*)::integer as n from pois group by all order by all',
    );
    const perThousand = Object.values(POIS_PER_1000).reduce((a, b) => a + b, 0);
    for (const row of perCountry) {
      const expected =
        perThousand * POPULATION_MILLIONS[row.country_code as keyof typeof POPULATION_MILLIONS];
      // Poisson counts: their total is within a few standard deviations (√n, under 1%).
      expect(
        Math.abs(Number(row.n) / (expected * 1000) - 1),
        String(row.country_code),
      ).toBeLessThan(0.02);
    }
    // Points of interest within 2 km of the centre of Wien and of the rural Waldviertel town
    // of Zwettl (0.01° latitude ≈ 1.1 km), per km² of the same box.
    const [density] = await snapshotRows(
      dataDir,
      `select
         count(*) filter (where abs(latitude - 48.2082) < 0.018 and abs(longitude - 16.3738) < 0.027) as wien,
         count(*) filter (where abs(latitude - 48.6036) < 0.018 and abs(longitude - 15.1689) < 0.027) as zwettl
       from pois where country_code = 'AT'`,
    );
    expect(Number(density?.wien)).toBeGreaterThan(500);
    expect(Number(density?.wien)).toBeGreaterThan(20 * Number(density?.zwettl));
  });

  it('puts every place inside its country: nearer to a postcode of it than to any other', async () => {
    // Where the postcodes in the 0.1° cells around a place are all of one country, that is the
    // country of its nearest postcode; where they are not (near a border), the nearest one is
    // looked for among them.
    const cte = `with places as (
         select country_code, id, latitude, longitude,
           floor(latitude * 10)::integer as gy, floor(longitude * 10)::integer as gx from pois
         union all select country_code, id, latitude, longitude,
           floor(latitude * 10)::integer, floor(longitude * 10)::integer from transit_stops),
       postcodes as (
         select country_code, latitude, longitude,
           floor(latitude * 10)::integer as gy, floor(longitude * 10)::integer as gx
         from divisions where level = 100 and latitude is not null),
       around as (
         select gy + dy as gy, gx + dx as gx, list(distinct country_code) as countries
         from postcodes, (select unnest([-1, 0, 1]) as dy), (select unnest([-1, 0, 1]) as dx)
         group by all),
       located as (select p.*, a.countries from places p left join around a using (gy, gx)),
       border as (select * from located where len(countries) > 1)`;
    const [outside] = await snapshotRows(
      dataDir,
      `${cte}
       select count(*)::integer as places,
         count(*) filter (where len(countries) > 1)::integer as near_border,
         count(*) filter (where not coalesce(list_contains(countries, country_code), false))::integer as unplaced
       from located`,
    );
    const [border] = await snapshotRows(
      dataDir,
      `${cte}, nearest as (
         select b.country_code,
           arg_min(z.country_code, (z.latitude - b.latitude) ** 2
             + ((z.longitude - b.longitude) * cos(radians(b.latitude))) ** 2) as nearest_country
         from border b, (select unnest([-1, 0, 1]) as dy), (select unnest([-1, 0, 1]) as dx), postcodes z
         where z.gy = b.gy + dy and z.gx = b.gx + dx
         group by b.country_code, b.id)
       select count(*) filter (where nearest_country <> country_code)::integer as foreign from nearest`,
    );
    expect(outside?.places).toBeGreaterThan(500_000);
    expect(outside?.near_border).toBeGreaterThan(1000);
    expect(outside?.unplaced).toBe(0);
    expect(border?.foreign).toBe(0);
  });

  it('is the same for a seed whatever the number of offers', async () => {
    const other = referenceDataDir();
    await generateDemoData(other, { offers: 500, projects: 3, seed: 7, today: TODAY });
    const [a, b] = await Promise.all([placesFingerprint(dataDir), placesFingerprint(other)]);
    expect(b).toEqual(a);
  });

  it('keeps imported places, adds no demo places of their kind to their district, and replaces its own', async () => {
    const dir = referenceDataDir();
    const files = tempDir();
    // Two pharmacies and a stop in Wien 1010, and the population of its district (level 8, 901).
    const imports = [
      [
        'pois',
        csv(
          ['id', 'countryCode', 'category', 'name', 'latitude', 'longitude'],
          [
            ['ph-1', 'AT', 'pharmacy', 'Apotheke A', 48.2085, 16.3721],
            ['ph-2', 'AT', 'pharmacy', 'Apotheke B', 48.21, 16.37],
          ],
        ),
      ],
      [
        'transit',
        csv(
          ['id', 'countryCode', 'name', 'latitude', 'longitude'],
          [['st-1', 'AT', 'Stephansplatz', 48.2085, 16.3721]],
        ),
      ],
      [
        'indicators',
        csv(
          ['countryCode', 'level', 'divisionId', 'indicator', 'year', 'value'],
          [['AT', 8, '901', 'population', 2025, 16_500]],
        ),
      ],
    ] as const;
    for (const [entity, text] of imports) {
      await importFile(dir, entity, path.resolve(writeFile(files, `${entity}.csv`, text)), {
        strict: true,
      });
    }
    const state = () =>
      snapshotRows(
        dir,
        `with demo_places as (
           select p.category, d.level6_id from (
             select id, category from pois where country_code = 'AT'
             union all select id, 'stop' from transit_stops where country_code = 'AT') p
           join divisions d on d.country_code = 'AT' and d.level = 100 and d.id = split_part(p.id, '-', 4)
           where starts_with(p.id, 'demo-'))
         select
           (select list(id order by id) from pois where not starts_with(id, 'demo-')) as imported_pois,
           (select list(id order by id) from transit_stops where not starts_with(id, 'demo-')) as imported_stops,
           (select count(*) from demo_places where level6_id = '900' and category = 'pharmacy')::integer as wien_pharmacies,
           (select count(*) from demo_places where level6_id = '900' and category = 'restaurant')::integer as wien_restaurants,
           (select count(*) from demo_places where level6_id <> '900' and category = 'pharmacy')::integer as other_pharmacies,
           (select count(*) from demo_places where level6_id = '900' and category = 'stop')::integer as wien_demo_stops,
           (select count(*) from demo_places where level6_id <> '900' and category = 'stop')::integer as other_stops,
           (select list(indicator || '=' || value::varchar) from indicators where country_code = 'AT' and level = 8 and division_id = '901') as district_901,
           (select count(*) from indicators where country_code = 'AT' and level = 8 and division_id = '902')::integer as district_902,
           (select count(*) from pois where starts_with(id, 'demo-'))::integer as demo_pois`,
      );
    await generateDemoData(dir, { offers: 500, projects: 0, seed: 7, today: TODAY });
    // What generating keeps: the imported places and indicators, and no demo ones beside them.
    const kept = {
      imported_pois: ['ph-1', 'ph-2'],
      imported_stops: ['st-1'],
      wien_pharmacies: 0,
      wien_demo_stops: 0,
      district_901: ['population=16500.0'],
      district_902: DEMO_INDICATORS.length,
    };
    const [first] = await state();
    expect(first).toMatchObject(kept);
    expect(first?.wien_restaurants).toBeGreaterThan(100);
    expect(first?.other_pharmacies).toBeGreaterThan(100);
    expect(first?.other_stops).toBeGreaterThan(1000);
    // Generated again: the demo places are replaced (another seed, other rows), the imported
    // ones stay, and the demo indicators are still told from imported ones.
    await generateDemoData(dir, { offers: 500, projects: 0, seed: 8, today: TODAY });
    const [second] = await state();
    expect(second).toMatchObject(kept);
    expect(second?.demo_pois).not.toBe(first?.demo_pois);
    expect(Math.abs(Number(second?.demo_pois) / Number(first?.demo_pois) - 1)).toBeLessThan(0.01);
  });
});

describe('indicators imported into a generated market', () => {
  it('replace the division’s generated ones at once, and stay through the next generate', async () => {
    const dir = referenceDataDir();
    const files = tempDir();
    await generateDemoData(dir, { offers: 500, projects: 0, seed: 7, today: TODAY });
    const district = async (id: string) =>
      (
        await snapshotRows(
          dir,
          `select list(indicator || '=' || value::varchar || ' ' || source order by indicator) as rows
           from indicators where country_code = 'AT' and level = 8 and division_id = '${id}'`,
        )
      )[0]?.rows as string[] | null;
    const generated = await district('901');
    expect(generated).toHaveLength(DEMO_INDICATORS.length);
    // A published figure of an earlier year than the generated ones.
    const file = writeFile(
      files,
      'indicators.csv',
      csv(
        ['countryCode', 'level', 'divisionId', 'indicator', 'year', 'value', 'source'],
        [['AT', 8, '901', 'population', 2021, 16_500, 'Stadt Wien']],
      ),
    );
    await importFile(dir, 'indicators', path.resolve(file), { strict: true });
    const published = ['population=16500.0 Stadt Wien'];
    expect(await district('901')).toEqual(published);
    // The neighbouring district keeps its generated ones.
    expect(await district('902')).toHaveLength(DEMO_INDICATORS.length);
    await generateDemoData(dir, { offers: 500, projects: 0, seed: 8, today: TODAY });
    expect(await district('901')).toEqual(published);
    expect(await district('902')).toHaveLength(DEMO_INDICATORS.length);
  });
});

describe('codes that house nobody', () => {
  it('get no demo places, offers or projects, and a town’s code beside them does', async () => {
    const dir = referenceDataDir();
    const files = tempDir();
    // A military postal sector at the point of Paris 07, as an imported division file may hold.
    const divisions = csv(
      ['countryCode', 'level', 'id', 'name', 'level6Id', 'level8Id', 'latitude', 'longitude'],
      [['FR', 100, '75303SP07', 'Paris 07', '75', null, 48.8565, 2.321]],
    );
    await importFile(dir, 'divisions', path.resolve(writeFile(files, 'divisions.csv', divisions)), {
      strict: true,
    });
    await generateDemoData(dir, { offers: 20_000, projects: 300, seed: 7, today: TODAY });
    const count = (id: string) =>
      snapshotRows(
        dir,
        `select
           (select count(*) from pois where country_code = 'FR' and split_part(id, '-', 4) = '${id}')::integer as pois,
           (select count(*) from transit_stops where country_code = 'FR' and split_part(id, '-', 4) = '${id}')::integer as stops,
           (select count(*) from offers where country_code = 'FR' and postal_code = '${id}')::integer as offers,
           (select count(*) from projects where country_code = 'FR' and postal_code = '${id}')::integer as projects`,
      );
    const [sector] = await count('75303SP07');
    const [town] = await count('75007');
    expect(sector).toEqual({ pois: 0, stops: 0, offers: 0, projects: 0 });
    expect(town?.pois).toBeGreaterThan(0);
    expect(town?.stops).toBeGreaterThan(0);
    expect(town?.offers).toBeGreaterThan(0);
  });
});
