import { DuckDBInstance } from '@duckdb/node-api';
import { queryRows } from '../src/market/duck.js';
import { currentSnapshot, marketPaths } from '../src/market/snapshots.js';
import fs from 'node:fs';
const src = currentSnapshot(marketPaths('/tmp/propdata-bench/offers-1000000-layout2'))!;
fs.rmSync('/tmp/rg16k.duckdb', { force: true });
const inst = await DuckDBInstance.create(':memory:');
const db = await inst.connect();
await db.run(`attach '${src}' as src (read_only)`);
await db.run(`attach '/tmp/rg16k.duckdb' as snap (row_group_size 16384)`);
await db.run(`use snap`);
const t0 = performance.now();
await db.run(`create table offers_by_place as select * from src.offers_by_place`);
await db.run(`create table offers as select * from src.offers`);
console.log('copy', (performance.now() - t0).toFixed(0), 'ms');
await db.run('checkpoint');
console.log(
  await queryRows(
    db,
    `select count(*)::int n, max(row_group_id)::int rg from pragma_storage_info('offers_by_place')`,
  ),
);
