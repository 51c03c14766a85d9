import type { SnapshotBuild } from '../build-snapshot.js';
import { queryRows, sqlString } from '../duck.js';
import { nearestPostcodeSql } from '../import/nearest-postcode.js';
import { BY_PLACE, hasPreviousTable } from '../import/places.js';
import { POI_CATEGORY_NAMES, type PoiCategory } from '../places/categories.js';
import { DEMO_SOURCE } from '../places/demo-source.js';
import type { Progress } from '../progress.js';
import { KM_PER_DEGREE, type PlaceArea } from './place-areas.js';
import { POI_LABELS, POIS_PER_1000, STOPS_PER_1000, STOPS_PER_POSTCODE } from './places-model.js';
import { hash } from './postcodes.js';
import { Random } from './random.js';

/** Ids of generated places start with this; `generate` replaces them and keeps the others. */
export const DEMO_ID_PREFIX = 'demo-';
export { DEMO_SOURCE } from '../places/demo-source.js';

/**
 * What imported (not generated) places the previous snapshot has, by the district of their
 * nearest postcode: `country:region:category` for points of interest, `country:region` for
 * stops. The generator leaves those alone: real data is not mixed with demo data of its kind.
 */
async function importedRegions(
  build: SnapshotBuild,
  table: 'pois' | 'transit_stops',
): Promise<Set<string>> {
  if (!(await hasPreviousTable(build, table))) return new Set();
  const category = table === 'pois' ? 'category' : 'null::varchar';
  await build.db.run(`
    create or replace temp table imported_places as
    select row_number() over () as line, country_code, latitude, longitude, ${category} as category
    from prev.${table} where not starts_with(id, '${DEMO_ID_PREFIX}')`);
  await build.db.run(nearestPostcodeSql('select * from imported_places', 'imported_regions'));
  const rows = await queryRows(
    build.db,
    `select distinct i.country_code, coalesce(r.level6_id, r.level8_id, r.id) as region, i.category
     from imported_places i join imported_regions r using (line)`,
  );
  await build.db.run('drop table imported_places; drop table imported_regions');
  return new Set(
    rows.map((r) =>
      [r.country_code, r.region, ...(r.category === null ? [] : [r.category])]
        .map(String)
        .join(':'),
    ),
  );
}

/**
 * A uniform number in [0, 1) for a generated place, from its id, the seed and a draw number:
 * the points are drawn in SQL, each from its own hash, the same whatever order rows come in.
 */
const uniform = (draw: number) => `(hash(id, $seed, ${String(draw)}) / 18446744073709551616.0)`;

/**
 * Coordinates around the postcode's centroid (columns of gen_areas), within its radius,
 * denser towards the centroid; rounded to 6 decimals (about 0.1 m).
 */
const POINT_SQL = `
  round(latitude + radius_km * ${uniform(1)} ** 0.75 * sin(2 * pi() * ${uniform(2)}) / ${String(KM_PER_DEGREE)}, 6) as latitude,
  round(longitude + radius_km * ${uniform(1)} ** 0.75 * cos(2 * pi() * ${uniform(2)})
    / (${String(KM_PER_DEGREE)} * cos(radians(latitude))), 6) as longitude`;

/** How a stop is served: subways near the centre of metro cities, trams in cities, else buses. */
const MODE_SQL = `case
  when ${uniform(3)} < 0.03 then 'rail'
  when subway_km < 5 and ${uniform(4)} < 0.2 then 'subway'
  when city_km < 8 and ${uniform(5)} < 0.3 then 'tram'
  else 'bus' end`;

const LABELS_SQL = `(values ${Object.entries(POI_LABELS)
  .map(([category, label]) => `(${sqlString(category)}, ${sqlString(label)})`)
  .join(', ')}) labels(category, label)`;

/** Postcodes between progress updates. */
const PROGRESS_STEP = 1000;

/**
 * Writes demo points of interest and stops around every postcode (counts drawn from its
 * population, README "Demo data"), next to the imported places of the previous snapshot. The
 * counts are drawn here, one row per postcode and category; SQL expands them into places, so
 * that memory stays flat and the work is DuckDB's, whatever the number of places.
 */
export async function generatePlaces(
  build: SnapshotBuild,
  areas: readonly PlaceArea[],
  seed: number,
  progress: Progress,
): Promise<{ pois: number; stops: number }> {
  // Their own random stream: places depend on the seed, not on the number of offers.
  const random = new Random(hash(`places:${String(seed)}`));
  const importedPois = await importedRegions(build, 'pois');
  const importedStops = await importedRegions(build, 'transit_stops');
  await build.db.run(`create temp table gen_areas (
    idx INTEGER, country_code VARCHAR, postcode VARCHAR, name VARCHAR, latitude DOUBLE,
    longitude DOUBLE, radius_km DOUBLE, subway_km DOUBLE, city_km DOUBLE)`);
  await build.db.run('create temp table gen_counts (idx INTEGER, category VARCHAR, n INTEGER)');
  const places = await build.db.createAppender('gen_areas', 'main', 'temp');
  const counts = await build.db.createAppender('gen_counts', 'main', 'temp');
  let poiCount = 0;
  let stopCount = 0;
  progress.start('generating places', areas.length);
  areas.forEach((area, index) => {
    const { country, id, name, latitude, longitude } = area.postcode;
    places.appendInteger(index);
    places.appendVarchar(country);
    places.appendVarchar(id);
    places.appendVarchar(name);
    places.appendDouble(latitude);
    places.appendDouble(longitude);
    places.appendDouble(area.radiusKm);
    places.appendDouble(Math.min(area.subwayCityKm, 1e6));
    places.appendDouble(Math.min(area.cityKm, 1e6));
    places.endRow();
    const thousands = area.population / 1000;
    const count = (category: string | null, n: number) => {
      if (n === 0) return;
      counts.appendInteger(index);
      if (category === null) counts.appendNull();
      else counts.appendVarchar(category);
      counts.appendInteger(n);
      counts.endRow();
    };
    for (const category of POI_CATEGORY_NAMES as readonly PoiCategory[]) {
      const n = random.poisson(POIS_PER_1000[category] * thousands);
      if (importedPois.has(`${country}:${area.region}:${category}`)) continue;
      count(category, n);
      poiCount += n;
    }
    const n = random.poisson(STOPS_PER_POSTCODE + STOPS_PER_1000 * thousands);
    if (!importedStops.has(`${country}:${area.region}`)) {
      count(null, n);
      stopCount += n;
    }
    if ((index + 1) % PROGRESS_STEP === 0) progress.update(index + 1);
  });
  for (const appender of [places, counts]) {
    appender.flushSync();
    appender.closeSync();
  }
  // One row per place: its number k within its postcode and category names it.
  await build.db.run(
    `create temp table gen_pois as
     with expanded as (
       select a.*, c.category, k, '${DEMO_ID_PREFIX}poi-' || lower(a.country_code) || '-' || a.postcode
         || '-' || c.category || '-' || k::varchar as id
       from gen_counts c join gen_areas a using (idx), range(1, c.n + 1) r(k)
       where c.category is not null)
     select country_code, id, e.category, 'Demo ' || label || ' ' || k::varchar || ', ' || name as name,
       ${POINT_SQL}
     from expanded e join ${LABELS_SQL} using (category)`,
    { seed },
  );
  await build.db.run(
    `create temp table gen_stops as
     with expanded as (
       select a.*, k, '${DEMO_ID_PREFIX}stop-' || lower(a.country_code) || '-' || a.postcode || '-'
         || k::varchar as id
       from gen_counts c join gen_areas a using (idx), range(1, c.n + 1) r(k)
       where c.category is null)
     select country_code, id, 'Demo stop ' || k::varchar || ', ' || name as name,
       ${MODE_SQL} as mode, ${POINT_SQL}
     from expanded`,
    { seed },
  );
  await build.db.run('drop table gen_areas; drop table gen_counts');
  progress.update(areas.length);
  progress.stop();

  for (const [table, generated] of [
    ['pois', 'gen_pois'],
    ['transit_stops', 'gen_stops'],
  ] as const) {
    const kept = (await hasPreviousTable(build, table))
      ? `select * from prev.${table} where not starts_with(id, '${DEMO_ID_PREFIX}') union all by name`
      : '';
    await build.db.run(`
      insert into ${table} by name
      select * from (${kept} select *, ${sqlString(DEMO_SOURCE)} as source from ${generated})
      order by ${BY_PLACE}`);
    await build.db.run(`drop table ${generated}`);
  }
  return { pois: poiCount, stops: stopCount };
}
