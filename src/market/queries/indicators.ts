import type { DuckDBConnection } from '@duckdb/node-api';
import { normalizePostcode, type CountryCode } from '../countries.js';
import { queryPrepared } from '../duck.js';
import { numberOf, textOrNull } from './values.js';

/** A division containing a point: its postcode (level 100) and the level-8 and level-6 above. */
export interface AreaDivision {
  level: number;
  id: string;
  name: string;
}

/** One value of an indicator, for one division and year, as imported. */
export interface IndicatorValue {
  indicator: string;
  level: number;
  divisionId: string;
  divisionName: string;
  year: number;
  value: number;
  unit: string | null;
  source: string | null;
}

/** An indicator of the point's finest division that has it, and of the next coarser one. */
export interface AreaIndicator {
  value: IndicatorValue;
  /** The same indicator of a coarser division containing the point, when the data has it. */
  wider: IndicatorValue | null;
}

/**
 * The indicators of the divisions containing a point: those of its postcode (the stated one
 * where the data has it, else the one nearest to the point, as the valuation places a
 * property), of that postcode's level-8 division and of its level-6 division. For each indicator the finest
 * of those divisions that has a value up to `year` is used, with its latest such year, and the
 * next coarser one beside it for comparison. Nothing is computed: every number is an imported
 * value, named with its division, year and source.
 */
export async function indicatorsAround(
  db: DuckDBConnection,
  search: {
    countryCode: CountryCode;
    point: { latitude: number; longitude: number };
    /** The postcode the caller states (a dossier's address), if any. */
    postcode?: string | undefined;
    year: number;
  },
): Promise<{ area: AreaDivision[]; indicators: AreaIndicator[] }> {
  const divisions = await queryPrepared(
    db,
    `with n as (
       select id, level6_id, level8_id from divisions
       where country_code = $country and level = 100 and latitude is not null
       order by id = $postcode desc nulls last,
         (latitude - $lat) ** 2 + ((longitude - $lon) * cos(radians($lat))) ** 2, id
       limit 1),
     keys as (
       select 100 as level, id from n
       union all select 8, level8_id from n where level8_id is not null
       union all select 6, level6_id from n where level6_id is not null)
     select k.level, k.id, d.name from keys k
     join divisions d on d.country_code = $country and d.level = k.level and d.id = k.id
     order by k.level desc`,
    {
      country: search.countryCode,
      lat: search.point.latitude,
      lon: search.point.longitude,
      postcode: search.postcode === undefined ? null : normalizePostcode(search.postcode),
    },
  );
  const area = divisions.map((d) => ({
    level: numberOf(d.level),
    id: String(d.id),
    name: String(d.name),
  }));
  // The divisions found above, bound as values: the nearest postcode is searched once.
  const idOf = (level: number) => area.find((d) => d.level === level)?.id ?? null;
  const rows = await queryPrepared(
    db,
    `with area as (
       select * from (values (100, $id100), (8, $id8), (6, $id6)) a(level, id) where id is not null)
     select i.indicator, i.level, i.division_id, i.year, i.value, i.unit, i.source
     from indicators i join area a on i.level = a.level and i.division_id = a.id
     where i.country_code = $country and i.year <= $year
     qualify row_number() over (partition by i.indicator, i.level order by i.year desc) = 1
     order by i.indicator, i.level desc`,
    {
      country: search.countryCode,
      year: search.year,
      id100: idOf(100),
      id8: idOf(8),
      id6: idOf(6),
    },
  );
  const byIndicator = new Map<string, IndicatorValue[]>();
  for (const r of rows) {
    const value: IndicatorValue = {
      indicator: String(r.indicator),
      level: numberOf(r.level),
      divisionId: String(r.division_id),
      divisionName: area.find((d) => d.level === numberOf(r.level))?.name ?? '',
      year: numberOf(r.year),
      value: Number(r.value),
      unit: textOrNull(r.unit),
      source: textOrNull(r.source),
    };
    byIndicator.set(value.indicator, [...(byIndicator.get(value.indicator) ?? []), value]);
  }
  return {
    area,
    indicators: [...byIndicator.values()].flatMap(([value, wider]) =>
      value ? [{ value, wider: wider ?? null }] : [],
    ),
  };
}
