import { LIST, listValue, VARCHAR } from '@duckdb/node-api';
import type { SnapshotBuild } from '../build-snapshot.js';
import { MAIN_CURRENCY } from '../countries.js';
import { queryRows, sqlString } from '../duck.js';
import { hasPreviousTable } from '../import/places.js';
import type { PlaceArea } from './place-areas.js';
import { DEMO_INDICATORS, type AreaFacts } from './places-model.js';
import { DEMO_SOURCE } from '../places/demo-source.js';
import { hash } from './postcodes.js';
import { Random } from './random.js';

/**
 * `snapshot_info` key listing the divisions whose indicators are generated
 * (`country:level:id`, space-separated): the next `generate` replaces exactly those, and
 * whoever shows an indicator can tell demo values from imported ones.
 */
export const DEMO_INDICATOR_DIVISIONS_KEY = 'places.demo_indicator_divisions';

/** A division as `country:level:id` in SQL, as the keys here are written. */
const DIVISION_KEY = "country_code || ':' || level::varchar || ':' || division_id";

/**
 * Divisions of the previous snapshot with indicators that were imported, not generated: told by
 * their source, so that an import into a division that had generated ones counts (the list of
 * the generated divisions, `DEMO_INDICATOR_DIVISIONS_KEY`, still names it).
 */
async function importedDivisions(build: SnapshotBuild): Promise<Set<string>> {
  if (!(await hasPreviousTable(build, 'indicators'))) return new Set();
  const rows = await queryRows(
    build.db,
    `select distinct ${DIVISION_KEY} as division from prev.indicators
     where source is distinct from ${sqlString(DEMO_SOURCE)}`,
  );
  return new Set(rows.map((r) => String(r.division)));
}

/** The level-6 and level-8 divisions of the postcodes, with their summed people and area. */
function divisionFacts(areas: readonly PlaceArea[]): Map<string, AreaFacts> {
  const facts = new Map<string, AreaFacts & { weightedLocation: number }>();
  for (const area of areas) {
    const { country, level6, level8, location } = area.postcode;
    for (const [level, id] of [
      [6, level6],
      [8, level8],
    ] as const) {
      if (id === null) continue;
      const key = `${country}:${String(level)}:${id}`;
      const f = facts.get(key) ?? {
        country,
        population: 0,
        areaKm2: 0,
        location: 1,
        weightedLocation: 0,
        currency: MAIN_CURRENCY[country],
      };
      f.population += area.population;
      f.areaKm2 += area.areaKm2;
      f.weightedLocation += area.population * location;
      facts.set(key, f);
    }
  }
  for (const f of facts.values()) f.location = f.weightedLocation / Math.max(1, f.population);
  return facts;
}

/**
 * Writes the demo indicators (places-model.ts) of every level-6 and level-8 division that has
 * postcodes, from the people and area of its postcodes, each with its own noise (seeded by the
 * seed, division and indicator); divisions with imported indicators keep those. Indicators of
 * the previous snapshot other than the generated ones are kept.
 */
export async function generateIndicators(
  build: SnapshotBuild,
  areas: readonly PlaceArea[],
  seed: number,
): Promise<{ indicators: number; divisions: number }> {
  const imported = await importedDivisions(build);
  const facts = [...divisionFacts(areas)].filter(([key]) => !imported.has(key));
  await build.db.run(`create temp table gen_indicators (
    country_code VARCHAR, level INTEGER, division_id VARCHAR, indicator VARCHAR, year INTEGER,
    value DOUBLE, unit VARCHAR)`);
  const appender = await build.db.createAppender('gen_indicators', 'main', 'temp');
  for (const [key, area] of facts) {
    const [, level = '', id = ''] = key.split(':');
    for (const indicator of DEMO_INDICATORS) {
      const noise = new Random(hash(`${String(seed)}:${key}:${indicator.name}`)).normal();
      const scale = 10 ** indicator.digits;
      appender.appendVarchar(area.country);
      appender.appendInteger(Number(level));
      appender.appendVarchar(id);
      appender.appendVarchar(indicator.name);
      appender.appendInteger(indicator.year);
      appender.appendDouble(Math.round(indicator.value(area, noise) * scale) / scale);
      appender.appendVarchar(
        typeof indicator.unit === 'string' ? indicator.unit : indicator.unit(area),
      );
      appender.endRow();
    }
  }
  appender.flushSync();
  appender.closeSync();
  // Imported indicators stay; the previous demo ones are replaced by these.
  await build.db.run(
    `insert into indicators by name
     select * from (
       ${imported.size > 0 ? `select * from prev.indicators where list_contains($imported, ${DIVISION_KEY}) and source is distinct from ${sqlString(DEMO_SOURCE)} union all by name` : ''}
       select *, ${sqlString(DEMO_SOURCE)} as source from gen_indicators)
     order by country_code, level, division_id, indicator, year`,
    imported.size > 0 ? { imported: listValue([...imported]) } : {},
    imported.size > 0 ? { imported: LIST(VARCHAR) } : {},
  );
  await build.db.run('drop table gen_indicators');
  await build.db.run(
    `insert into snapshot_info values ('${DEMO_INDICATOR_DIVISIONS_KEY}', $divisions)`,
    { divisions: facts.map(([key]) => key).join(' ') },
  );
  return { indicators: facts.length * DEMO_INDICATORS.length, divisions: facts.length };
}
