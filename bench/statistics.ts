// Offer statistics benchmark: `npm run bench -- statistics [--offers 1000000,10000000] [--fresh]`.
// A real server process answers over HTTP; the same SQL also runs directly on DuckDB in this
// process, so the table shows what the service adds to the bare query.
import { spawn } from 'node:child_process';
import http from 'node:http';
import readline from 'node:readline';
import autocannon from 'autocannon';
import type { DuckDBConnection } from '@duckdb/node-api';
import { toOfferStatisticsQuery } from '../src/features/statistics/market-query.js';
import { offerStatisticsSql } from '../src/market/queries/offer-statistics.js';
import type { StatisticsRequest } from '../src/features/statistics/schemas.js';
import { queryOne, queryPrepared } from '../src/market/duck.js';
import { benchData, offerSizes, openBenchSnapshot } from './data.js';
import { measure, ms } from './latency.js';
import { startBenchServer, type BenchServer } from './server.js';

interface Case {
  name: string;
  request: StatisticsRequest;
  /** Which published target this case is held to. */
  target?: { p50: number };
}

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
  const twoYears = { min: '2024-11', max: '2026-10' };
  return [
    {
      name: `level-8 division (${String(d.level8.country)} ${String(d.level8.id)}, ${String(d.level8.n)} offers)`,
      request: {
        countryCode: String(d.level8.country) as StatisticsRequest['countryCode'],
        filters: { divisionLevel8: String(d.level8.id), dealType: 'sale', startDate: twoYears },
        statistics: SALE_STATS,
      },
      target: { p50: 3 },
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
      target: { p50: 25 },
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

/**
 * Service / bare query ≤ 1.3× is held, at 10 M offers like the other targets, to requests whose
 * bare query takes 2 ms or more: below that, a bare node:http server answering the same query
 * (the floor column) already costs about 1.4× on this machine, so no HTTP service could meet it
 * (README, "Offer statistics").
 */
const RATIO_TARGET = { max: 1.3, fromQueryMs: 2, atOffers: 10_000_000 };

function ratioVerdict(offers: number, service: number, bare: number): string {
  if (offers < RATIO_TARGET.atOffers || bare < RATIO_TARGET.fromQueryMs) return '';
  const ok = service / bare <= RATIO_TARGET.max;
  return `service / bare ≤ ${String(RATIO_TARGET.max)}×${ok ? ' ✓' : ' ✗'}`;
}

async function benchSize(offers: number, args: string[]): Promise<string[]> {
  const dataDir = await benchData(offers, args);
  const snapshot = await openBenchSnapshot(dataDir);
  const { file, db } = snapshot;
  const server = await startBenchServer(dataDir);
  const size = offers.toLocaleString('en');
  const rows: string[] = [];
  try {
    const list = cases(await pickDivisions(db));
    for (const c of list) {
      process.stderr.write(`${size} offers: ${c.name}\n`);
      const query = offerStatisticsSql(toOfferStatisticsQuery(c.request));
      // The bare query runs as the service runs it: a prepared statement, values bound.
      const bare = await measure(() => queryPrepared(db, query.sql, query.params));
      const floor = await httpFloor(file, query.sql, query.params);
      const service = await measure(post(server, c.request));
      const verdict = c.target ? (service.p50 <= c.target.p50 ? ' ✓' : ' ✗') : '';
      const targets = [
        c.target ? `p50 ≤ ${String(c.target.p50)} ms` : '',
        ratioVerdict(offers, service.p50, bare.p50),
      ].filter(Boolean);
      rows.push(
        `| ${size} | ${c.name} | ${ms(service.p50)}${verdict} | ${ms(service.p99)} | ${ms(bare.p50)} | ${ms(floor.p50)} | ${(service.p50 / bare.p50).toFixed(2)}× | ${(floor.p50 / bare.p50).toFixed(2)}× | ${targets.join('; ')} |`,
      );
    }
    const first = list[0];
    if (first) {
      process.stderr.write(`${size} offers: 8 connections for 10 s\n`);
      const t = await throughput(server, first.request);
      rows.push(
        `| ${size} | ${first.name}: 8 connections, 10 s | ${t.rps.toFixed(0)} req/s${t.rps >= 1000 ? ' ✓' : ' ✗'} | p50 ${t.p50} ms, p99 ${t.p99} ms | | | | | ≥ 1,000 req/s; ${t.failures} failed |`,
      );
    }
  } finally {
    await server.stop();
    snapshot.close();
  }
  return rows;
}

export async function benchStatistics(args: string[]): Promise<string> {
  const rows = [
    '| offers | request | HTTP p50 | HTTP p99 | bare DuckDB p50 | bare HTTP server p50 | service / bare | bare HTTP server / bare | target |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const offers of offerSizes(args, [1_000_000, 10_000_000])) {
    rows.push(...(await benchSize(offers, args)));
  }
  return rows.join('\n');
}
