import fs from 'node:fs';
import path from 'node:path';
import { openDuck, queryOne, sqlString } from '../duck.js';
import { DISTANCE_SQL } from '../geo.js';

/** Stephansplatz; stops farther than STOPS_WITHIN_METERS from it are misplaced in the source. */
const VIENNA_CENTRE = { latitude: 48.2085, longitude: 16.3731 };
const STOPS_WITHIN_METERS = 30_000;

/** The files of shared/data/vienna-places this converter reads. */
const SOURCES = ['pois.csv', 'pharmacies.csv', 'transit-stops.csv', 'district-indicators.csv'];

/**
 * Where the data comes from, written next to the converted files and printed: whoever shows
 * these places must show this (see NOTICE).
 */
export const VIENNA_PLACES_ATTRIBUTION = `Places of Vienna:
- transit stops: Datenquelle: Wiener Linien (CC BY 4.0)
- pharmacies, and points of interest other than those from OpenStreetMap, and district
  indicators: Datenquelle: Stadt Wien – data.wien.gv.at (CC BY 4.0)
- restaurants, cafés, bars, pubs, beer gardens, nightclubs, pitches, sports and fitness centres,
  fitness stations and swimming venues: © OpenStreetMap contributors (ODbL)
`;

/** The attribution of each source, as the `source` column carries it (shown with the data). */
export const VIENNA_SOURCES = {
  city: 'Datenquelle: Stadt Wien – data.wien.gv.at (CC BY 4.0)',
  transit: 'Datenquelle: Wiener Linien (CC BY 4.0)',
  osm: '© OpenStreetMap contributors (ODbL)',
} as const;

/** Units of the district indicators, by name (the source gives none). */
const INDICATOR_UNITS: Record<string, string> = {
  area_km2: 'km²',
  population: 'persons',
  population_density: 'persons per km²',
  avg_age: 'years',
  cycle_path_km: 'km',
  pedestrian_zone_m2: 'm²',
  road_area_m2: 'm²',
  pct_tertiary_education: '%',
  net_income: 'EUR per year',
};

export interface ViennaPlacesResult {
  pois: number;
  transit: number;
  /** Stop platforms left out: without a position, or without a name for them or their stop. */
  transitSkipped: number;
  indicators: number;
}

const csv = (dir: string, file: string) =>
  `read_csv(${sqlString(path.join(dir, file))}, header = true, all_varchar = true, strict_mode = true)`;

/**
 * Converts shared/data/vienna-places into the canonical places formats: `pois.csv` (the
 * points of interest and the pharmacies), `transit.csv` and `indicators.csv` (districts 1–23
 * as the level-8 divisions 901–923), and `ATTRIBUTION.txt`, in `target`.
 */
export async function convertViennaPlaces(
  source: string,
  target: string,
): Promise<ViennaPlacesResult> {
  for (const file of SOURCES) {
    if (!fs.existsSync(path.join(source, file))) {
      throw new Error(`${path.join(source, file)} does not exist: give the vienna-places folder`);
    }
  }
  fs.mkdirSync(target, { recursive: true });
  const instance = await openDuck(':memory:');
  const db = await instance.connect();
  const out = (file: string) => sqlString(path.join(target, file));
  try {
    await db.run(`copy (
      select key as id, 'AT' as countryCode, category, null as subcategory,
        -- Line breaks written as HTML in the City's names ("Rasenplatz,<br />Beachvolleyball")
        -- are a comma's or a space's; white space collapsed.
        nullif(trim(regexp_replace(regexp_replace(name, '\\s*<br\\s*/?>\\s*', ' ', 'gi'), '\\s+', ' ', 'g')), '') as name,
        lat as latitude, lon as longitude,
        case when source = 'osm' then ${sqlString(VIENNA_SOURCES.osm)} else ${sqlString(VIENNA_SOURCES.city)} end as source
      from ${csv(source, 'pois.csv')}
      union all
      select id, 'AT', 'pharmacy', null, name, latitude, longitude, ${sqlString(VIENNA_SOURCES.city)}
      from ${csv(source, 'pharmacies.csv')}
      order by id) to ${out('pois.csv')} (header, delimiter ',')`);
    // Every platform of a stop (`diva` groups them) takes the stop's name: the name most of its
    // platforms give, the shortest of those alike ("Stephansplatz", not "Stephansplatz U"), so
    // that counting stops by name counts each once. Platforms without a position (0, 0 in the
    // source), more than 30 km from the city's centre (a few lie 76–112 km away) or without
    // any name are left out.
    await db.run(
      `copy (
      with platforms as (
        select * replace (try_cast(latitude as double) as latitude,
                          try_cast(longitude as double) as longitude),
          nullif(trim(regexp_replace(name, '\\s+', ' ', 'g')), '') as clean,
          nullif(diva, '') as stop
        from ${csv(source, 'transit-stops.csv')}),
      names as (
        select stop, clean as stop_name from (
          select stop, clean, row_number() over (
            partition by stop order by count(*) desc, length(clean), clean) as r
          from platforms where stop is not null and clean is not null group by stop, clean)
        where r = 1)
      select stop_id as id, 'AT' as countryCode, coalesce(stop_name, clean) as name,
        null as mode, latitude, longitude, ${sqlString(VIENNA_SOURCES.transit)} as source
      from platforms left join names using (stop)
      where latitude between 47 and 49.5 and longitude between 15 and 18
        and ${DISTANCE_SQL} <= ${String(STOPS_WITHIN_METERS)}
        and coalesce(stop_name, clean) is not null
      order by try_cast(stop_id as integer), stop_id
    ) to ${out('transit.csv')} (header, delimiter ',')`,
      { lat: VIENNA_CENTRE.latitude, lon: VIENNA_CENTRE.longitude },
    );
    const units = Object.entries(INDICATOR_UNITS)
      .map(([name, unit]) => `(${sqlString(name)}, ${sqlString(unit)})`)
      .join(', ');
    await db.run(`copy (
      select 'AT' as countryCode, 8 as level,
        (900 + try_cast(district as integer))::varchar as divisionId, indicator, year, value,
        coalesce(u.unit, case when indicator like '%_per_1000' then 'per 1,000 inhabitants' end) as unit,
        ${sqlString(VIENNA_SOURCES.city)} as source
      from ${csv(source, 'district-indicators.csv')} i
      left join (values ${units}) u(name, unit) on u.name = i.indicator
      order by divisionId, indicator, year) to ${out('indicators.csv')} (header, delimiter ',')`);
    fs.writeFileSync(path.join(target, 'ATTRIBUTION.txt'), VIENNA_PLACES_ATTRIBUTION);
    const rows = async (dir: string, file: string) =>
      Number((await queryOne(db, `select count(*)::integer as n from ${csv(dir, file)}`))?.n);
    const transit = await rows(target, 'transit.csv');
    return {
      pois: await rows(target, 'pois.csv'),
      transit,
      transitSkipped: (await rows(source, 'transit-stops.csv')) - transit,
      indicators: await rows(target, 'indicators.csv'),
    };
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}
