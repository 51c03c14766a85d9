// Fairness benchmark: `npm run bench -- fairness [--offers 1000000] [--fresh]`.
// One organization keeps 6 of the heaviest statistics requests in flight (50 statistics × 24
// overlapping groups over the largest level-6 division) while another organization sends light
// ones (one count in a level-8 division) one after another; the light requests' latency is
// measured alone first, then under the heavy load. Target: p90 ≤ 250 ms, no 5xx.
import http from 'node:http';
import type { StatisticsRequest } from '../src/features/statistics/schemas.js';
import { queryOne } from '../src/market/duck.js';
import { benchData, offerSizes, openBenchSnapshot } from './data.js';
import { startBenchServer, type BenchServer } from './server.js';

const HEAVY_CONNECTIONS = 6;
const ALONE_MS = 10_000;
const LOADED_MS = 30_000;
/** The heavy organization starts first; light requests are measured once it is at full load. */
const RAMP_MS = 3_000;

interface Answer {
  status: number;
  ms: number;
}

function client(server: BenchServer, token: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return {
    post: (body: string): Promise<Answer> =>
      new Promise((resolve, reject) => {
        const started = performance.now();
        const req = http.request(
          `${server.url}/api/v1/offers/statistics`,
          { method: 'POST', agent, headers },
          (res) => {
            res.resume();
            res.on('end', () => {
              resolve({ status: res.statusCode ?? 0, ms: performance.now() - started });
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}

async function requests(dataDir: string) {
  const snapshot = await openBenchSnapshot(dataDir);
  try {
    const level6 = await queryOne(
      snapshot.db,
      `select country_code as country, division_level6 as id, count(*)::integer as n
         from offers where division_level6 is not null group by all order by n desc limit 1`,
    );
    const level8 = await queryOne(
      snapshot.db,
      `with counts as (select country_code as country, division_level8 as id, count(*) as n
                         from offers where division_level8 is not null group by all)
       select country, id, n::integer as n from counts
        where n >= (select quantile_disc(n, 0.9) from counts) order by n, country, id limit 1`,
    );
    if (!level6 || !level8) throw new Error('no divisions in the bench data');
    const metrics = ['sale_price', 'sale_price_per_square_meter', 'living_area'] as const;
    const heavy: StatisticsRequest = {
      countryCode: String(level6.country) as StatisticsRequest['countryCode'],
      filters: { divisionLevel6: String(level6.id) },
      statistics: Array.from({ length: 50 }, (_, i) => ({
        type: 'percentile' as const,
        metric: metrics[i % metrics.length] ?? 'sale_price',
        parameters: { percentileRank: 1 + i * 2 },
      })),
      // Overlapping ranges: each offer falls into most of the 24 groups.
      groupBy: {
        field: 'living_area',
        groups: Array.from({ length: 24 }, (_, i) => ({ lowerBound: i * 5 })),
      },
    };
    const light: StatisticsRequest = {
      countryCode: String(level8.country) as StatisticsRequest['countryCode'],
      filters: { divisionLevel8: String(level8.id), dealType: 'sale' },
      statistics: [{ type: 'count', metric: 'sale_price' }],
    };
    return {
      heavy,
      light,
      heavyName: `${String(level6.country)} ${String(level6.id)}, ${String(level6.n)} offers`,
      lightName: `${String(level8.country)} ${String(level8.id)}, ${String(level8.n)} offers`,
    };
  } finally {
    snapshot.close();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

function summary(answers: Answer[]) {
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const by = (test: (s: number) => boolean) => answers.filter((a) => test(a.status)).length;
  return {
    n: answers.length,
    p50: percentile(ms, 0.5),
    p90: percentile(ms, 0.9),
    p99: percentile(ms, 0.99),
    max: ms[ms.length - 1] ?? 0,
    ok: by((s) => s === 200),
    refused: by((s) => s === 429),
    failed: by((s) => s >= 500),
  };
}

/** Sends `body` one request after another until `until` says stop. */
async function loop(send: () => Promise<Answer>, until: () => boolean, into: Answer[]) {
  while (!until()) into.push(await send());
}

const f = (v: number) => `${v.toFixed(0)} ms`;

export async function benchFairness(args: string[]): Promise<string> {
  const offers = offerSizes(args, [1_000_000])[0] ?? 1_000_000;
  const dataDir = await benchData(offers, args);
  const { heavy, light, heavyName, lightName } = await requests(dataDir);
  const server = await startBenchServer(dataDir);
  const lightClient = client(server, server.otherToken);
  const heavyClients = Array.from({ length: HEAVY_CONNECTIONS }, () =>
    client(server, server.token),
  );
  try {
    const lightBody = JSON.stringify(light);
    const heavyBody = JSON.stringify(heavy);
    // Warm-up: both requests once, so that first-use costs are not measured.
    await lightClient.post(lightBody);
    const single = await heavyClients[0]?.post(heavyBody);

    const alone: Answer[] = [];
    let end = performance.now() + ALONE_MS;
    await loop(
      () => lightClient.post(lightBody),
      () => performance.now() > end,
      alone,
    );

    const heavyAnswers: Answer[] = [];
    let stopHeavy = false;
    const heavyLoops = heavyClients.map((c) =>
      loop(
        () => c.post(heavyBody),
        () => stopHeavy,
        heavyAnswers,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, RAMP_MS));
    const loaded: Answer[] = [];
    end = performance.now() + LOADED_MS;
    await loop(
      () => lightClient.post(lightBody),
      () => performance.now() > end,
      loaded,
    );
    stopHeavy = true;
    await Promise.all(heavyLoops);

    const a = summary(alone);
    const l = summary(loaded);
    const h = summary(heavyAnswers);
    const met = l.p90 <= 250 && l.failed === 0;
    return [
      `${offers.toLocaleString('en')} offers. Heavy: 50 percentiles × 24 overlapping living-area groups over the largest level-6 division (${heavyName}), one alone ${f(single?.ms ?? 0)}; light: one count in a level-8 division (${lightName}).`,
      '',
      '| organization | requests | phase | answered | p50 | p90 | p99 | max | 200 | 429 | 5xx | target |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      `| B | light, 1 at a time | alone, ${String(ALONE_MS / 1000)} s | ${String(a.n)} | ${f(a.p50)} | ${f(a.p90)} | ${f(a.p99)} | ${f(a.max)} | ${String(a.ok)} | ${String(a.refused)} | ${String(a.failed)} | |`,
      `| B | light, 1 at a time | while A runs ${String(HEAVY_CONNECTIONS)} heavy, ${String(LOADED_MS / 1000)} s | ${String(l.n)} | ${f(l.p50)} | ${f(l.p90)} | ${f(l.p99)} | ${f(l.max)} | ${String(l.ok)} | ${String(l.refused)} | ${String(l.failed)} | p90 ≤ 250 ms, no 5xx ${met ? '✓' : '✗'} |`,
      `| A | heavy, ${String(HEAVY_CONNECTIONS)} at a time | same time | ${String(h.n)} | ${f(h.p50)} | ${f(h.p90)} | ${f(h.p99)} | ${f(h.max)} | ${String(h.ok)} | ${String(h.refused)} | ${String(h.failed)} | |`,
    ].join('\n');
  } finally {
    lightClient.close();
    for (const c of heavyClients) c.close();
    await server.stop();
  }
}
