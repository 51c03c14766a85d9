import { openDuck, queryRows } from '../src/market/duck.js';
import { currentSnapshot, marketPaths } from '../src/market/snapshots.js';
const files = {
  default: currentSnapshot(marketPaths('/tmp/propdata-bench/offers-1000000-layout2'))!,
  rg16k: '/tmp/rg16k.duckdb',
};
for (const [label, file] of Object.entries(files)) {
  const inst = await openDuck(file, { readOnly: true });
  const db = await inst.connect();
  const rs = await queryRows(
    db,
    `select country_code, latitude, longitude, living_area, property_type from offers where deal_type='sale' and latitude is not null order by hash(country_code, id) limit 20`,
  );
  let total = 0;
  for (const r of rs) {
    const lat = Number(r.latitude),
      lon = Number(r.longitude),
      d = 1000 / 111320,
      dl = d / Math.cos((lat * Math.PI) / 180);
    const q = `select ln(sale_price / living_area) y, latitude, longitude from offers_by_place where country_code = '${r.country_code}' and latitude between ${lat - d} and ${lat + d} and longitude between ${lon - dl} and ${lon + dl} and deal_type = 'sale' and property_type = '${r.property_type}' and start_date between '2024-11-21' and '2026-11-21' order by (latitude - ${lat}) ** 2 + (longitude - ${lon}) ** 2 limit 300`;
    await queryRows(db, q);
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) await queryRows(db, q);
    total += (performance.now() - t0) / 5;
  }
  const stat = `select avg(sale_price) from offers where country_code = 'AT' and division_level8 = '20817' and deal_type = 'sale'`;
  await queryRows(db, stat);
  const t1 = performance.now();
  for (let i = 0; i < 20; i++) await queryRows(db, stat);
  console.log(
    label,
    'radius avg',
    (total / rs.length).toFixed(2),
    'ms; level8 stat',
    ((performance.now() - t1) / 20).toFixed(2),
    'ms',
  );
}
