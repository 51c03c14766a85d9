// The same offers in PostgreSQL 15, for the statistics benchmark's side-by-side column: a
// throw-away cluster from the machine's binaries (as the tests start one), the offers copied
// from the DuckDB snapshot, an index on the division columns, deal type and start date,
// CLUSTERed on it, ANALYZEd; queries as prepared statements on one connection.
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import pg from 'pg';
import { sqlString } from '../src/market/duck.js';
import { findBinDir, startCluster, type Cluster } from '../test/helpers/postgres-cluster.js';

const COLUMNS = `country_code text not null, division_level6 text, division_level8 text,
  deal_type text not null, start_date date not null, sale_price float8, rent_gross float8,
  living_area float8, latitude float8, longitude float8`;

export interface PostgresSide {
  /** Runs a named prepared statement and returns its rows. */
  query(name: string, text: string, values: unknown[]): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

/** Starts a cluster and loads the snapshot's offers; undefined without PostgreSQL binaries. */
export async function postgresSide(duck: DuckDBConnection): Promise<PostgresSide | undefined> {
  const binDir = findBinDir();
  if (!binDir) {
    process.stderr.write('PostgreSQL binaries not found: no PostgreSQL column\n');
    return undefined;
  }
  const cluster: Cluster = await startCluster(binDir);
  const client = new pg.Client({ connectionString: cluster.url });
  try {
    await client.connect();
    const csv = path.join(cluster.dir, 'offers.csv');
    process.stderr.write('PostgreSQL: exporting offers\n');
    await duck.run(
      `copy (select country_code, division_level6, division_level8, deal_type, start_date,
         sale_price, rent_gross, living_area, latitude, longitude from offers)
       to ${sqlString(csv)} (header, delimiter ',')`,
    );
    fs.chmodSync(csv, 0o644);
    process.stderr.write('PostgreSQL: loading, indexing, clustering\n');
    await client.query(`create table offers (${COLUMNS})`);
    await client.query(`copy offers from ${sqlString(csv)} with (format csv, header true)`);
    fs.rmSync(csv);
    await client.query(
      'create index offers_l6 on offers (country_code, division_level6, deal_type, start_date)',
    );
    await client.query(
      'create index offers_l8 on offers (country_code, division_level8, deal_type, start_date)',
    );
    await client.query('cluster offers using offers_l6');
    await client.query('analyze offers');
  } catch (error) {
    await client.end().catch(() => undefined);
    cluster.stop();
    throw error;
  }
  return {
    async query(name, text, values) {
      return (await client.query({ name, text, values })).rows as Record<string, unknown>[];
    },
    async stop() {
      await client.end().catch(() => undefined);
      cluster.stop();
    },
  };
}

/** Sale price per m² of one division and period: count, mean, p25, p50, p75. */
export function postgresSaleStatistics(level: 6 | 8): string {
  return `select count(x)::int as n, avg(x) as mean,
      percentile_cont(array[0.25, 0.5, 0.75]) within group (order by x) as p
    from (select case when living_area > 0 then sale_price / living_area end as x from offers
          where country_code = $1 and division_level${String(level)} = $2 and deal_type = 'sale'
            and start_date >= $3::date and start_date < $4::date) t`;
}

/** Rent per m² of one level-6 division by month: mean and median. */
export const POSTGRES_RENT_BY_MONTH = `select date_trunc('month', start_date)::date as g,
    avg(x) as mean, percentile_cont(0.5) within group (order by x) as p50
  from (select start_date, case when living_area > 0 then rent_gross / living_area end as x
        from offers where country_code = $1 and division_level6 = $2 and deal_type = 'rent'
          and start_date >= $3::date and start_date < $4::date) t
  group by 1 order by 1`;
