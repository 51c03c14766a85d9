import type { DuckDBAppender } from '@duckdb/node-api';
import type { SnapshotBuild } from '../build-snapshot.js';
import { queryRows } from '../duck.js';
import { nearestPostcodeSql } from '../import/nearest-postcode.js';
import { BY_PLACE } from '../import/places.js';
import { POI_CATEGORY_NAMES, type PoiCategory } from '../places/categories.js';
import type { Progress } from '../progress.js';
import { KM_PER_DEGREE, type PlaceArea } from './place-areas.js';
import { POI_LABELS, POIS_PER_1000, STOPS_PER_1000, STOPS_PER_POSTCODE } from './places-model.js';
import type { Random } from './random.js';

/** Ids of generated places start with this; `generate` replaces them and keeps the others. */
export const DEMO_ID_PREFIX = 'demo-';

/** Whether the previous snapshot has the table (a snapshot from before places had none). */
async function hasPrevious(build: SnapshotBuild, table: string): Promise<boolean> {
  if (!build.hasPrevious) return false;
  const rows = await queryRows(
    build.db,
    `select 1 from duckdb_tables() where database_name = 'prev' and table_name = '${table}'`,
  );
  return rows.length > 0;
}

/**
 * What imported (not generated) places the previous snapshot has, by the district of their
 * nearest postcode: `country:region:category` for points of interest, `country:region` for
 * stops. The generator leaves those alone: real data is not mixed with demo data of its kind.
 */
async function importedRegions(
  build: SnapshotBuild,
  table: 'pois' | 'transit_stops',
): Promise<Set<string>> {
  if (!(await hasPrevious(build, table))) return new Set();
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

/** A point drawn around the postcode, within its radius, denser towards the centroid. */
function placeNear(random: Random, area: PlaceArea): [number, number] {
  const { latitude, longitude } = area.postcode;
  const distance = area.radiusKm * random.uniform() ** 0.75;
  const angle = 2 * Math.PI * random.uniform();
  const dLat = (distance * Math.sin(angle)) / KM_PER_DEGREE;
  const dLon =
    (distance * Math.cos(angle)) / (KM_PER_DEGREE * Math.cos((latitude * Math.PI) / 180));
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return [round(latitude + dLat), round(longitude + dLon)];
}

function appendPoint(appender: DuckDBAppender, point: [number, number]): void {
  appender.appendDouble(point[0]);
  appender.appendDouble(point[1]);
}

/** How a stop is served: subways near the centre of metro cities, trams in cities, else buses. */
function stopMode(random: Random, area: PlaceArea): string {
  if (random.chance(0.03)) return 'rail';
  if (area.subwayCityKm < 5 && random.chance(0.2)) return 'subway';
  if (area.cityKm < 8 && random.chance(0.3)) return 'tram';
  return 'bus';
}

const POI_TEMP = `country_code VARCHAR, id VARCHAR, category VARCHAR, name VARCHAR,
  latitude DOUBLE, longitude DOUBLE`;
const STOP_TEMP = `country_code VARCHAR, id VARCHAR, name VARCHAR, mode VARCHAR,
  latitude DOUBLE, longitude DOUBLE`;

/** Postcodes between progress updates. */
const PROGRESS_STEP = 1000;

/**
 * Writes demo points of interest and stops around every postcode (counts drawn from its
 * population, README "Demo data"), next to the imported places of the previous snapshot. The
 * rows are appended as they are drawn: memory stays flat whatever the number of places.
 */
export async function generatePlaces(
  build: SnapshotBuild,
  areas: readonly PlaceArea[],
  random: Random,
  progress: Progress,
): Promise<{ pois: number; stops: number }> {
  const importedPois = await importedRegions(build, 'pois');
  const importedStops = await importedRegions(build, 'transit_stops');
  await build.db.run(`create temp table gen_pois (${POI_TEMP})`);
  await build.db.run(`create temp table gen_stops (${STOP_TEMP})`);
  const pois = await build.db.createAppender('gen_pois', 'main', 'temp');
  const stops = await build.db.createAppender('gen_stops', 'main', 'temp');
  let poiCount = 0;
  let stopCount = 0;
  progress.start('generating places', areas.length);
  areas.forEach((area, index) => {
    const { country, id, name } = area.postcode;
    const cc = country.toLowerCase();
    const thousands = area.population / 1000;
    for (const category of POI_CATEGORY_NAMES as readonly PoiCategory[]) {
      const n = random.poisson(POIS_PER_1000[category] * thousands);
      if (n === 0 || importedPois.has(`${country}:${area.region}:${category}`)) continue;
      for (let k = 1; k <= n; k++) {
        pois.appendVarchar(country);
        pois.appendVarchar(`${DEMO_ID_PREFIX}poi-${cc}-${id}-${category}-${String(k)}`);
        pois.appendVarchar(category);
        pois.appendVarchar(`Demo ${POI_LABELS[category]} ${String(k)}, ${name}`);
        appendPoint(pois, placeNear(random, area));
        pois.endRow();
      }
      poiCount += n;
    }
    const n = random.poisson(STOPS_PER_POSTCODE + STOPS_PER_1000 * thousands);
    if (!importedStops.has(`${country}:${area.region}`)) {
      for (let k = 1; k <= n; k++) {
        stops.appendVarchar(country);
        stops.appendVarchar(`${DEMO_ID_PREFIX}stop-${cc}-${id}-${String(k)}`);
        stops.appendVarchar(`Demo stop ${String(k)}, ${name}`);
        stops.appendVarchar(stopMode(random, area));
        appendPoint(stops, placeNear(random, area));
        stops.endRow();
      }
      stopCount += n;
    }
    if ((index + 1) % PROGRESS_STEP === 0) progress.update(index + 1);
  });
  pois.flushSync();
  pois.closeSync();
  stops.flushSync();
  stops.closeSync();
  progress.update(areas.length);
  progress.stop();

  for (const [table, generated] of [
    ['pois', 'gen_pois'],
    ['transit_stops', 'gen_stops'],
  ] as const) {
    const kept = (await hasPrevious(build, table))
      ? `select * from prev.${table} where not starts_with(id, '${DEMO_ID_PREFIX}') union all by name`
      : '';
    await build.db.run(`
      insert into ${table} by name
      select * from (${kept} select * from ${generated}) order by ${BY_PLACE}`);
    await build.db.run(`drop table ${generated}`);
  }
  return { pois: poiCount, stops: stopCount };
}
