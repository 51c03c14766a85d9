import { timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../app-context.js';
import { bearerToken } from './auth.js';
import { unauthenticated } from './caller.js';

/** Seconds: from a cached statistic (1 ms) to a request at its deadlines (15 s and more). */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const START = Symbol('metricsStart');
type Timed = FastifyRequest & { [START]?: number };

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /metrics` in the Prometheus text format, only when a metrics token is configured
 * (`PROPDATA_METRICS_TOKEN`) and only for a request that sends it as a bearer token: the
 * figures say how busy the service is and which routes it has, which is nobody else's business.
 * Per process: each worker of `serve --workers N` answers for itself (label `pid`).
 */
export function registerMetrics(app: FastifyInstance, ctx: AppContext, token: string): void {
  const registry = new Registry();
  registry.setDefaultLabels({ pid: String(process.pid) });
  const duration = new Histogram({
    name: 'propdata_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: BUCKETS,
    registers: [registry],
  });
  const inFlight = new Gauge({
    name: 'propdata_http_requests_in_flight',
    help: 'Requests received and not yet answered',
    registers: [registry],
  });
  const queries = new Histogram({
    name: 'propdata_market_query_duration_seconds',
    help: 'Time of the DuckDB market queries of one statistics, valuation or property tracker request',
    labelNames: ['kind', 'outcome'],
    buckets: BUCKETS,
    registers: [registry],
  });
  // Read at each scrape (collect), so registered and not kept.
  new Gauge({
    name: 'propdata_work_queue_length',
    help: 'Costly work waiting for its turn or running: statistics and valuations, PDF checks',
    labelNames: ['pool', 'state'],
    registers: [registry],
    collect() {
      for (const [pool, queue] of [
        ['costly_requests', ctx.costlyWork.queue],
        ['pdf_checks', ctx.pdfInspector.queue],
      ] as const) {
        const { running, waiting } = queue.size;
        this.set({ pool, state: 'running' }, running);
        this.set({ pool, state: 'waiting' }, waiting);
      }
    },
  });
  new Gauge({
    name: 'propdata_market_snapshot_age_seconds',
    help: 'Time since the market snapshot in use was published',
    registers: [registry],
    collect() {
      try {
        this.set((Date.now() - fs.statSync(ctx.stores.market.snapshotFile).mtimeMs) / 1000);
      } catch {
        // A snapshot retired and deleted between two scrapes: the next one has the new age.
      }
    },
  });
  const shed = new Counter({
    name: 'propdata_http_requests_refused_total',
    help: 'Answers 429 and 503: rate limits, costly work without a turn, overload',
    labelNames: ['status'],
    registers: [registry],
  });

  ctx.costlyWork.onQueries = (kind, seconds, outcome) => {
    queries.observe({ kind, outcome }, seconds);
  };
  app.addHook('onRequest', (request, _reply, done) => {
    (request as Timed)[START] = performance.now();
    inFlight.inc();
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const started = (request as Timed)[START];
    if (started !== undefined) {
      inFlight.dec();
      const status = reply.statusCode;
      // The route's pattern, never the URL: ids would make a series per object.
      const route = request.routeOptions.url ?? 'unmatched';
      duration.observe(
        { method: request.method, route, status: String(status) },
        (performance.now() - started) / 1000,
      );
      if (status === 429 || status === 503) shed.inc({ status: String(status) });
    }
    done();
  });

  app.get(
    '/metrics',
    { config: { auth: 'none' }, schema: { hide: true } },
    async (request, reply) => {
      const given = bearerToken(request.headers.authorization ?? '');
      if (given === undefined || !sameSecret(given, token)) {
        throw unauthenticated('The metrics token is required', given !== undefined);
      }
      return reply
        .header('cache-control', 'no-store')
        .type(registry.contentType)
        .send(await registry.metrics());
    },
  );
}
