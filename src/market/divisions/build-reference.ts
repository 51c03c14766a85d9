import path from 'node:path';
import { COUNTRIES } from '../countries.js';
import { openDuck, sqlString } from '../duck.js';
import { LEVEL_MAPPING, type LevelSource } from './level-mapping.js';

function levelCase(
  pick: (levels: (typeof LEVEL_MAPPING)[keyof typeof LEVEL_MAPPING]) => LevelSource | undefined,
  field: 'code' | 'name',
): string {
  const branches = COUNTRIES.map((cc) => {
    const source = pick(LEVEL_MAPPING[cc]);
    return source ? `when '${cc}' then nullif(trim(${source[field]}), '')` : '';
  }).join(' ');
  return `case country_code ${branches} else null end`;
}

/**
 * Derives the divisions reference (levels 6, 8 and 100) from the GeoNames postcode files:
 * a postcode belongs to the level-8 division most of its places are in and to that division's
 * level 6 (without a level 8, the level 6 most of its places are in), and every division's
 * centroid is the mean position of its places. French codes other than five digits
 * are left out: CEDEX (business mail), SP (military postal sectors), AIR (air bases) and
 * CITYSSIMO (parcel lockers) codes are not areas anyone lives in, and sit at the very point of
 * the town's own code, so a point's nearest postcode could be one of them.
 */
export async function buildReferenceDivisions(sourceDir: string, outFile: string): Promise<number> {
  const instance = await openDuck(':memory:');
  const db = await instance.connect();
  try {
    const glob = sqlString(path.join(sourceDir, 'zipcodes.*.csv'));
    await db.run(`
      create table places as
      select upper(country_code) as cc,
             upper(regexp_replace(zipcode, '\\s+', '', 'g')) as pid,
             trim(place) as place,
             ${levelCase((l) => l.level6, 'code')} as l6_id,
             ${levelCase((l) => l.level6, 'name')} as l6_name,
             ${levelCase((l) => l.level8, 'code')} as l8_id,
             ${levelCase((l) => l.level8, 'name')} as l8_name,
             try_cast(latitude as double) as lat,
             try_cast(longitude as double) as lon,
             row_number() over () as seq
      from read_csv(${glob}, header = true, all_varchar = true)
      where (upper(country_code) <> 'FR'
             or regexp_full_match(regexp_replace(zipcode, '\\s+', '', 'g'), '[0-9]{5}'))
        and try_cast(latitude as double) is not null`);
    // Most common value per group, ties broken by the smaller code, so the build is reproducible.
    const mostCommon = (key: string, value: string) => `
      (select ${key}, ${value} as v from (
         select ${key}, ${value}, row_number() over (partition by ${key} order by count(*) desc, ${value}) as r
         from places where ${value} is not null group by ${key}, ${value}) where r = 1)`;
    // A postcode's level 8: the one most of its places are in. A tie goes first to a division
    // that no postcode holds outright, so that it is not left without any (Wien 1140 has as
    // many places in Penzing as in Mauerbach and in Purkersdorf, whose own codes hold them),
    // then to the smaller code.
    await db.run(`
      create table pc_l8 as
      with counts as (
             select cc, pid, l8_id, count(*) as n from places where l8_id is not null group by all),
           ranked as (
             select *, count(*) over (partition by cc, pid, n) as alike,
                    max(n) over (partition by cc, pid) as top
             from counts),
           outright as (select distinct cc, l8_id from ranked where n = top and alike = 1)
      select cc, pid, v from (
        select c.cc, c.pid, c.l8_id as v,
               row_number() over (partition by c.cc, c.pid
                                  order by c.n desc, o.l8_id is not null, c.l8_id) as r
        from counts c left join outright o on o.cc = c.cc and o.l8_id = c.l8_id)
      where r = 1`);
    await db.run(`
      create table divisions as
      with pc_l6_places as ${mostCommon('cc, pid', 'l6_id')},
           l8_l6 as ${mostCommon('cc, l8_id', 'l6_id')},
           -- Level 6 is the level 8's parent where the postcode has a level 8, so that the two
           -- nest (a postcode of Penzing in Wien, not in the district most of its places are
           -- in); else the one most of its places are in.
           pc_l6 as (
             select p.cc, p.pid, coalesce(l8_l6.v, p.v) as v
             from pc_l6_places p
             left join pc_l8 on pc_l8.cc = p.cc and pc_l8.pid = p.pid
             left join l8_l6 on l8_l6.cc = pc_l8.cc and l8_l6.l8_id = pc_l8.v),
           l6_names as ${mostCommon('cc, l6_id', 'l6_name')},
           l8_names as ${mostCommon('cc, l8_id', 'l8_name')}
      select p.cc as countryCode, 100 as level, p.pid as id,
             -- Named after its place of its level 8's name (6850 Dornbirn), else its first
             -- place in its level 8 (1140 "Wien, Penzing", not the "Purkersdorf" listed first).
             first(p.place order by p.place = l8n.v desc nulls last,
                                    p.l8_id is not distinct from pc_l8.v desc, p.seq) as name,
             any_value(pc_l6.v) as level6Id, any_value(pc_l8.v) as level8Id,
             round(avg(p.lat), 5) as latitude, round(avg(p.lon), 5) as longitude
      from places p
      left join pc_l6 on pc_l6.cc = p.cc and pc_l6.pid = p.pid
      left join pc_l8 on pc_l8.cc = p.cc and pc_l8.pid = p.pid
      left join l8_names l8n on l8n.cc = pc_l8.cc and l8n.l8_id = pc_l8.v
      group by p.cc, p.pid
      union all
      select p.cc, 8, p.l8_id, any_value(n.v), any_value(l8_l6.v), null,
             round(avg(p.lat), 5), round(avg(p.lon), 5)
      from places p
      join l8_names n on n.cc = p.cc and n.l8_id = p.l8_id
      left join l8_l6 on l8_l6.cc = p.cc and l8_l6.l8_id = p.l8_id
      where p.l8_id is not null group by p.cc, p.l8_id
      union all
      select p.cc, 6, p.l6_id, any_value(n.v), null, null, round(avg(p.lat), 5), round(avg(p.lon), 5)
      from places p
      join l6_names n on n.cc = p.cc and n.l6_id = p.l6_id
      where p.l6_id is not null group by p.cc, p.l6_id`);
    await db.run(`
      copy (select * from divisions order by countryCode, level, id)
      to ${sqlString(outFile)} (header, compression gzip)`);
    const reader = await db.runAndReadAll('select count(*)::integer as n from divisions');
    return Number(reader.getRowObjectsJS()[0]?.n ?? 0);
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}
