/**
 * SQL creating temp table `target (line, id, level6_id, level8_id)`: for each row of `points`
 * (line, country_code, latitude, longitude), the nearest postcode of its country among those in
 * the surrounding 0.1° grid cells (about 11 km); of codes at the same distance the smallest id,
 * as everywhere a point's postcode is found (many share one centroid in the source: 459 of
 * Bratislava's), so an import gives the same answer every time. A hash join on grid cells instead of a
 * comparison with every postcode keeps this linear in the number of rows.
 */
export function nearestPostcodeSql(points: string, target: string): string {
  return `
    create temp table ${target} as
    with pts as (${points}),
    cells as (
      select p.*, floor(p.latitude * 10)::integer + dy as gy, floor(p.longitude * 10)::integer + dx as gx
      from pts p, (select unnest([-1, 0, 1]) as dy), (select unnest([-1, 0, 1]) as dx)
    ),
    postcodes as (
      select country_code, id, level6_id, level8_id, latitude, longitude,
             floor(latitude * 10)::integer as gy, floor(longitude * 10)::integer as gx
      from divisions where level = 100 and latitude is not null
    )
    select line, best.id, best.level6_id, best.level8_id from (
      select c.line,
             arg_min({ 'id': z.id, 'level6_id': z.level6_id, 'level8_id': z.level8_id },
                     { 'd': (z.latitude - c.latitude) ** 2
                             + ((z.longitude - c.longitude) * cos(radians(c.latitude))) ** 2,
                       'id': z.id }) as best
      from cells c join postcodes z on z.country_code = c.country_code and z.gy = c.gy and z.gx = c.gx
      group by c.line)`;
}
