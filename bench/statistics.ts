// Offer statistics benchmark: `npm run bench -- statistics [--offers 1000000,10000000] [--fresh]`.
// A real server process answers over HTTP; the same SQL also runs directly on DuckDB in this
// process, so the table shows what the service adds to the bare query.
import { spawn } from 'node:child_process';
import http from 'node:http';
import readline from 'node:readline';
import v8 from 'node:v8';
import vm from 'node:vm';
import autocannon from 'autocannon';
import type { DuckDBConnection } from '@duckdb/node-api';
import { toOfferStatisticsQuery } from '../src/features/statistics/market-query.js';
import { offerStatisticsSql } from '../src/market/queries/offer-statistics.js';
import type { StatisticsRequest } from '../src/features/statistics/schemas.js';
import { queryOne, queryPrepared } from '../src/market/duck.js';
import { loadDivisionSlice } from '../src/market/queries/division-slice.js';
import { benchData, offerSizes, openBenchSnapshot } from './data.js';
import { measure, ms } from './latency.js';
import { startBenchServer, type BenchServer } from './server.js';
import { POSTGRES_RENT_BY_MONTH, postgresSaleStatistics, postgresSide } from './postgres-side.js';

interface Case {
  name: string;
  request: StatisticsRequest;
  /** Which published target this case is held to. */
  target?: { p50: number } | { fasterThanPostgres: number };
  /** The same statistics in PostgreSQL, and the service's answer as PostgreSQL's rows. */
  postgres?: {
    sql: string;
    values: unknown[];
    /** The service's answer in the shape of PostgreSQL's rows, to compare. */
    expected: (answer: StatisticsAnswer) => number[];
    actual: (rows: Record<string, unknown>[]) => number[];
  };
}

interface StatisticsAnswer {
  items: { statistics: { value?: number }[] }[];
}

const TWO_YEARS = { min: '2024-11', max: '2026-10', end: '2026-11-01' } as const;

/** Count, mean and quartiles of the service's single group, as PostgreSQL returns them. */
const saleAnswer = (answer: StatisticsAnswer) =>
  (answer.items[0]?.statistics ?? []).map((s) => s.value ?? NaN);
const salePostgres = (rows: Record<string, unknown>[]) => {
  const row = rows[0] ?? {};
  return [Number(row.n), Number(row.mean), ...(row.p as number[])];
};

const SALE_STATS: StatisticsRequest['statistics'] = [
  { type: 'count', metric: 'sale_price_per_square_meter' },
  { type: 'mean', metric: 'sale_price_per_square_meter' },
  { type: 'percentile', metric: 'sale_price_per_square_meter', parameters: { percentileRank: 25 } },
  { type: 'percentile', metric: 'sale_price_per_square_meter', parameters: { percentileRank: 50 } },
  { type: 'percentile', metric: 'sale_price_per_square_meter', parameters: { percentileRank: 75 } },
];

/** The divisions the cases use, picked from the data itself. */
async function pickDivisions(db: DuckDBConnection) {
  const level6 = await queryOne(
    db,
    `select country_code as country, division_level6 as id, avg(latitude) as lat, avg(longitude) as lon
       from offers where division_level6 is not null
      group by all order by count(*) desc limit 1`,
  );
  // A busy but ordinary municipality: the one at the 90th percentile of offers per level-8 division.
  const level8 = await queryOne(
    db,
    `with counts as (select country_code as country, division_level8 as id, count(*) as n
                       from offers where division_level8 is not null group by all)
     select country, id, n::integer as n from counts
      where n >= (select quantile_disc(n, 0.9) from counts) order by n, country, id limit 1`,
  );
  const largest8 = await queryOne(
    db,
    `select country_code as country, division_level8 as id, count(*)::integer as n
       from offers where division_level8 is not null group by all order by n desc limit 1`,
  );
  if (!level6 || !level8 || !largest8) throw new Error('no divisions in the bench data');
  return { level6, level8, largest8 };
}

function cases(d: Awaited<ReturnType<typeof pickDivisions>>): Case[] {
  const in6 = { divisionLevel6: String(d.level6.id) };
  const country6 = String(d.level6.country) as StatisticsRequest['countryCode'];
  const twoYears = { min: TWO_YEARS.min, max: TWO_YEARS.max };
  return [
    {
      name: `level-8 division (${String(d.level8.country)} ${String(d.level8.id)}, ${String(d.level8.n)} offers)`,
      request: {
        countryCode: String(d.level8.country) as StatisticsRequest['countryCode'],
        filters: { divisionLevel8: String(d.level8.id), dealType: 'sale', startDate: twoYears },
        statistics: SALE_STATS,
      },
      target: { p50: 1 },
      postgres: {
        sql: postgresSaleStatistics(8),
        values: [d.level8.country, d.level8.id, `${TWO_YEARS.min}-01`, TWO_YEARS.end],
        expected: saleAnswer,
        actual: salePostgres,
      },
    },
    {
      name: `largest level-8 division (${String(d.largest8.country)} ${String(d.largest8.id)}, ${String(d.largest8.n)} offers)`,
      request: {
        countryCode: String(d.largest8.country) as StatisticsRequest['countryCode'],
        filters: { divisionLevel8: String(d.largest8.id), dealType: 'sale', startDate: twoYears },
        statistics: SALE_STATS,
      },
    },
    {
      name: `largest level-6 division (${country6} ${in6.divisionLevel6})`,
      request: {
        countryCode: country6,
        filters: { ...in6, dealType: 'sale', startDate: twoYears },
        statistics: SALE_STATS,
      },
      target: { fasterThanPostgres: 3 },
      postgres: {
        sql: postgresSaleStatistics(6),
        values: [country6, in6.divisionLevel6, `${TWO_YEARS.min}-01`, TWO_YEARS.end],
        expected: saleAnswer,
        actual: salePostgres,
      },
    },
    {
      name: 'largest level-6, by month over 5 years (60 groups)',
      request: {
        countryCode: country6,
        filters: { ...in6, dealType: 'rent', startDate: { min: '2021-11', max: '2026-10' } },
        statistics: [
          { type: 'mean', metric: 'rent_gross_per_square_meter' },
          {
            type: 'percentile',
            metric: 'rent_gross_per_square_meter',
            parameters: { percentileRank: 50 },
          },
        ],
        groupBy: { field: 'start_date', period: 'month' },
      },
      target: { fasterThanPostgres: 3 },
      postgres: {
        sql: POSTGRES_RENT_BY_MONTH,
        values: [country6, in6.divisionLevel6, '2021-11-01', TWO_YEARS.end],
        // Months without offers have no values in the answer and no row in PostgreSQL's.
        expected: (answer) =>
          answer.items.flatMap((i) =>
            i.statistics[0]?.value === undefined
              ? []
              : [i.statistics[0].value, i.statistics[1]?.value ?? NaN],
          ),
        actual: (rows) => rows.flatMap((r) => [Number(r.mean), Number(r.p50)]),
      },
    },
    {
      name: 'largest level-6, 24 living-area groups',
      request: {
        countryCode: country6,
        filters: { ...in6, dealType: 'sale' },
        statistics: SALE_STATS.slice(0, 3),
        groupBy: {
          field: 'living_area',
          groups: Array.from({ length: 24 }, (_, i) => ({
            lowerBound: 20 + i * 10,
            ...(i < 23 ? { upperBound: 30 + i * 10 } : {}),
          })),
        },
      },
    },
    {
      name: 'largest level-6, 2 km radius',
      request: {
        countryCode: country6,
        filters: {
          ...in6,
          dealType: 'sale',
          coordinates: { latitude: Number(d.level6.lat), longitude: Number(d.level6.lon) },
          radius: 2000,
        },
        statistics: SALE_STATS,
      },
    },
  ];
}

function post(server: BenchServer, request: StatisticsRequest): () => Promise<void> {
  const body = JSON.stringify(request);
  return async () => {
    const res = await server.post('/api/v1/offers/statistics', body);
    if (res.status !== 200) throw new Error(`HTTP ${String(res.status)}: ${res.body}`);
  };
}

/**
 * Starts `bench/http-floor.ts` (a bare node:http server answering with one prepared query) and
 * measures it with the same client as the service: what HTTP alone adds to the bare query.
 */
async function httpFloor(file: string, sql: string, params: unknown) {
  const child = spawn(
    process.execPath,
    [...process.execArgv, 'bench/http-floor.ts', file, sql, JSON.stringify(params)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const lines = readline.createInterface({ input: child.stdout });
    const port = Number((await lines[Symbol.asyncIterator]().next()).value);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = () =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(
          `http://127.0.0.1:${String(port)}/`,
          { method: 'POST', agent },
          (res) => {
            res.resume();
            res.on('end', () => {
              if (res.statusCode === 200) resolve();
              else reject(new Error(`floor server: HTTP ${String(res.statusCode)}`));
            });
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
    const latency = await measure(post);
    agent.destroy();
    return latency;
  } finally {
    child.kill('SIGTERM');
  }
}

async function throughput(server: BenchServer, request: StatisticsRequest) {
  const result = await autocannon({
    url: `${server.url}/api/v1/offers/statistics`,
    method: 'POST',
    connections: 8,
    duration: 10,
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

function throughputRow(
  size: string,
  what: string,
  t: Awaited<ReturnType<typeof throughput>>,
): string {
  return `| ${size} | ${what} | | ${t.rps.toFixed(0)} req/s | p50 ${String(t.p50)} ms, p99 ${String(t.p99)} ms | | | | | | | ≥ 3,000 req/s${t.rps >= 3000 ? ' ✓' : ' ✗'}; ${String(t.failures)} failed |`;
}

/** Given as the query, makes bench/http-floor.ts answer `{}` without any query. */
const EMPTY_HTTP = '-';

/** Enough sequential requests before measuring that the p50 no longer moves (JIT, caches). */
const WARMUP = 500;

function verdict(
  c: Case,
  service: number,
  postgres: number | undefined,
  /** p50 of an HTTP server that answers at once, without any work: HTTP's own cost. */
  emptyHttp: number,
): string {
  if (!c.target) return '';
  if ('p50' in c.target) {
    const small = `p50 ≤ ${String(c.target.p50)} ms${service <= c.target.p50 ? ' ✓' : ' ✗'}`;
    if (postgres === undefined) return small;
    const pgOverHttp = postgres + emptyHttp;
    return (
      `${small}; < PostgreSQL + empty HTTP server (${ms(postgres)} + ${ms(emptyHttp)} = ` +
      `${ms(pgOverHttp)})${service < pgOverHttp ? ' ✓' : ' ✗'}`
    );
  }
  if (postgres === undefined) return '';
  const ok = postgres / service >= c.target.fasterThanPostgres;
  return `≥ ${String(c.target.fasterThanPostgres)}× faster than PostgreSQL${ok ? ' ✓' : ' ✗'}`;
}

/** Whether two lists of numbers agree to 1e-9 relative (NaN only with NaN). */
function agree(a: number[], b: number[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => {
      const y = b[i] as number;
      return (
        (Number.isNaN(x) && Number.isNaN(y)) || Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(y), 1)
      );
    })
  );
}

/** A full garbage collection, without starting the benchmark with --expose-gc. */
function fullGc(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/** Bytes the slice of a division holds in this process after a full GC, per offer. */
async function sliceBytesPerOffer(db: DuckDBConnection, c: Case): Promise<number> {
  const query = toOfferStatisticsQuery(c.request);
  const key = { countryCode: query.selection.countryCode, ...query.selection.division };
  fullGc();
  const before = process.memoryUsage().arrayBuffers;
  const slice = await loadDivisionSlice(db, key);
  fullGc();
  const held = process.memoryUsage().arrayBuffers - before;
  return held / slice.length;
}

async function benchSize(offers: number, args: string[]): Promise<string[]> {
  const dataDir = await benchData(offers, args);
  const snapshot = await openBenchSnapshot(dataDir);
  const { file, db } = snapshot;
  const postgres = args.includes('--no-postgres') ? undefined : await postgresSide(db);
  const server = await startBenchServer(dataDir);
  const sqlServer = await startBenchServer(dataDir, { PROPDATA_STATS_CACHE_MB: '0' });
  const size = offers.toLocaleString('en');
  const rows: string[] = [];
  try {
    const list = cases(await pickDivisions(db));
    // HTTP's own cost with the same client: a bare node:http server answering `{}` at once.
    const emptyHttp = await httpFloor(file, EMPTY_HTTP, {});
    for (const c of list) {
      process.stderr.write(`${size} offers: ${c.name}\n`);
      const query = offerStatisticsSql(toOfferStatisticsQuery(c.request));
      // The bare query runs as the service runs it: a prepared statement, values bound.
      const bare = await measure(() => queryPrepared(db, query.sql, query.params));
      const floor = await httpFloor(file, query.sql, query.params);
      const started = performance.now();
      const answer = JSON.parse(
        (await server.post('/api/v1/offers/statistics', JSON.stringify(c.request))).body,
      ) as StatisticsAnswer;
      const cold = performance.now() - started;
      const service = await measure(post(server, c.request), { warmup: WARMUP });
      const inSql = await measure(post(sqlServer, c.request));
      let pgP50: number | undefined;
      let equal = '';
      if (postgres && c.postgres) {
        const spec = c.postgres;
        const name = `q${String(list.indexOf(c))}`;
        const pgRows = await postgres.query(name, spec.sql, spec.values);
        equal = agree(spec.expected(answer), spec.actual(pgRows)) ? 'equal ✓' : 'DIFFER ✗';
        pgP50 = (await measure(() => postgres.query(name, spec.sql, spec.values))).p50;
      }
      const pgCells =
        pgP50 === undefined ? '| | |' : `| ${ms(pgP50)} | ${(pgP50 / service.p50).toFixed(1)}× |`;
      rows.push(
        `| ${size} | ${c.name} | ${ms(cold)} | ${ms(service.p50)} | ${ms(service.p99)} | ${ms(inSql.p50)} | ${ms(bare.p50)} | ${ms(floor.p50)} ${pgCells} ${equal} | ${verdict(c, service.p50, pgP50, emptyHttp.p50)} |`,
      );
    }
    const first = list[0];
    if (first) {
      process.stderr.write(`${size} offers: 8 connections for 10 s\n`);
      const t = await throughput(server, first.request);
      rows.push(throughputRow(size, `${first.name}: 8 connections, 10 s`, t));
      // The same with `serve --workers 2`, as one would run the service on two cores.
      const twoWorkers = await startBenchServer(dataDir, {}, [], ['--workers', '2']);
      try {
        process.stderr.write(`${size} offers: 8 connections for 10 s, 2 worker processes\n`);
        // Each worker fills its own slices and warms up; one kept-alive connection reaches one
        // worker only, so the warm-up is a first run on 8 connections, not counted.
        await throughput(twoWorkers, first.request);
        const t2 = await throughput(twoWorkers, first.request);
        rows.push(
          throughputRow(size, `${first.name}: 8 connections, 10 s, \`serve --workers 2\``, t2),
        );
      } finally {
        await twoWorkers.stop();
      }
    }
    const largest = list.find((c) => c.name.startsWith('largest level-6 division'));
    if (largest) {
      const bytes = await sliceBytesPerOffer(db, largest);
      rows.push(
        `| ${size} | memory of division slices | | ${((bytes * 1e6) / 2 ** 20).toFixed(0)} MiB per 1 M offers cached | | | | | | | | |`,
      );
    }
  } finally {
    await server.stop();
    await sqlServer.stop();
    await postgres?.stop();
    snapshot.close();
  }
  return rows;
}

export async function benchStatistics(args: string[]): Promise<string> {
  const rows = [
    `Service: in memory (division slices), p50 after ${String(WARMUP)} warm-up requests; "SQL path": the same service with PROPDATA_STATS_CACHE_MB=0. PostgreSQL 15: the same offers, index on (country, division, deal type, start date), CLUSTERed, one prepared statement; answers compared to 1e-9. \`--no-postgres\` leaves PostgreSQL out.`,
    '',
    '| offers | request | cold first request | HTTP p50 | HTTP p99 | SQL path p50 | bare DuckDB p50 | bare HTTP server p50 | PostgreSQL p50 | PostgreSQL / service | answers | target |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const offers of offerSizes(args, [1_000_000, 10_000_000])) {
    rows.push(...(await benchSize(offers, args)));
  }
  return rows.join('\n');
}
