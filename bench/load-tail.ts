// Where the load benchmark's tail comes from: `npm run bench -- load-tail [--offers 300000]`.
// One worker, the load benchmark's mix for 30 s at 10 and at 50 connections; after each run the
// server's own /metrics give the time of each route (from arrival to answer) and of the market
// queries, so the tail can be put on a route, and on queueing or on the work itself.
import autocannon from 'autocannon';
import { benchData, offerSizes } from './data.js';
import { busyFlat, mix, setUp } from './load.js';
import { startBenchServer, type BenchServer } from './server.js';

const SECONDS = 30;
const METRICS_TOKEN = 'bench-metrics-token-not-a-secret-0123456789';

interface Series {
  count: number;
  sum: number;
  buckets: [number, number][];
}

/** The histograms of one metric, by the value of one label, summed over the others. */
async function histograms(server: BenchServer, metric: string, label: string) {
  const res = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await res.text();
  const series = new Map<string, Series>();
  for (const line of text.split('\n')) {
    const m = /^(\w+)\{(.*)\} (\S+)$/.exec(line);
    if (!m?.[1]?.startsWith(metric)) continue;
    const labels: Record<string, string | undefined> = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1] ?? '', x[2] ?? '']),
    );
    const key = `${labels.method ? `${labels.method} ` : ''}${labels[label] ?? ''}`;
    const s = series.get(key) ?? { count: 0, sum: 0, buckets: [] };
    const value = Number(m[3]);
    if (m[1].endsWith('_count')) s.count += value;
    else if (m[1].endsWith('_sum')) s.sum += value;
    else if (m[1].endsWith('_bucket')) {
      const le = labels.le === '+Inf' ? Infinity : Number(labels.le);
      const known = s.buckets.find((b) => b[0] === le);
      if (known) known[1] += value;
      else s.buckets.push([le, value]);
    }
    series.set(key, s);
  }
  return series;
}

/** The upper bound of the bucket holding the p-th value: "p99 ≤ x". */
function bound(s: Series, p: number): string {
  const sorted = [...s.buckets].sort((a, b) => a[0] - b[0]);
  const rank = p * s.count;
  const hit = sorted.find(([, n]) => n >= rank);
  return hit ? (hit[0] === Infinity ? '> 30 s' : `≤ ${String(hit[0] * 1000)} ms`) : '?';
}

export async function benchLoadTail(args: string[]): Promise<string> {
  const offers = offerSizes(args, [300_000])[0] ?? 300_000;
  const dataDir = await benchData(offers, args);
  const flat = await busyFlat(dataDir);
  const out: string[] = [];
  for (const connections of [10, 50]) {
    const server = await startBenchServer(dataDir, {
      PROPDATA_DUCKDB_MEMORY_LIMIT: '256MB',
      PROPDATA_METRICS_TOKEN: METRICS_TOKEN,
    });
    try {
      const requests = mix(flat, await setUp(server, flat));
      // Warm-up, then the measured run on a fresh count: the server's figures are cumulative,
      // so the warm-up's are subtracted.
      await autocannon({
        url: server.url,
        connections,
        duration: 10,
        headers: { authorization: `Bearer ${server.token}` },
        requests,
      });
      const before = await histograms(server, 'propdata_http_request_duration_seconds', 'route');
      const beforeQ = await histograms(server, 'propdata_market_query_duration_seconds', 'kind');
      const result = await autocannon({
        url: server.url,
        connections,
        duration: SECONDS,
        headers: { authorization: `Bearer ${server.token}` },
        requests,
      });
      const after = await histograms(server, 'propdata_http_request_duration_seconds', 'route');
      const afterQ = await histograms(server, 'propdata_market_query_duration_seconds', 'kind');
      const minus = (a: Series, b: Series | undefined): Series => ({
        count: a.count - (b?.count ?? 0),
        sum: a.sum - (b?.sum ?? 0),
        buckets: a.buckets.map(([le, n]) => [
          le,
          n - (b?.buckets.find((x) => x[0] === le)?.[1] ?? 0),
        ]),
      });
      const mean = 1000 * (connections / result.requests.average);
      out.push(
        `### ${String(connections)} connections: ${result.requests.average.toFixed(0)} req/s, p50 ${String(result.latency.p50)} ms, p90 ${String(result.latency.p90)} ms, p99 ${String(result.latency.p99)} ms, mean ${result.latency.mean.toFixed(0)} ms (connections ÷ throughput: ${mean.toFixed(0)} ms), ${String(result.errors + result.timeouts + result.non2xx)} failed`,
        '',
        '| route (server time, arrival to answer) | requests | mean | p50 | p90 | p99 |',
        '| --- | --- | --- | --- | --- | --- |',
      );
      for (const [key, s] of after) {
        if (key.includes('/metrics')) continue;
        const d = minus(s, before.get(key));
        if (d.count <= 0) continue;
        out.push(
          `| ${key} | ${String(d.count)} | ${((1000 * d.sum) / d.count).toFixed(1)} ms | ${bound(d, 0.5)} | ${bound(d, 0.9)} | ${bound(d, 0.99)} |`,
        );
      }
      for (const [key, s] of afterQ) {
        const d = minus(s, beforeQ.get(key));
        if (d.count <= 0) continue;
        out.push(
          `| market queries: ${key} | ${String(d.count)} | ${((1000 * d.sum) / d.count).toFixed(1)} ms | ${bound(d, 0.5)} | ${bound(d, 0.9)} | ${bound(d, 0.99)} |`,
        );
      }
      out.push('');
    } finally {
      await server.stop();
    }
  }
  return out.join('\n');
}
