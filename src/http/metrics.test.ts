import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../test/helpers/problem.js';
import { call, createWorld, type World } from '../../test/helpers/world.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789abcdef';

describe('GET /metrics', () => {
  let world: World;
  let off: World;
  beforeAll(async () => {
    world = await createWorld('sqlite', { env: { PROPDATA_METRICS_TOKEN: METRICS_TOKEN } });
    off = await createWorld('sqlite');
  });
  afterAll(async () => {
    await world.close();
    await off.close();
  });

  const scrape = (app = world.app, token?: string) =>
    call(app, { method: 'GET', url: '/metrics', ...(token ? { token } : {}) });

  it('does not exist unless a metrics token is configured', async () => {
    expectProblem(await scrape(off.app, METRICS_TOKEN), 404, 'not_found');
  });

  it('answers only the metrics token: not anonymous callers, not API tokens', async () => {
    expectProblem(await scrape(), 401, 'unauthenticated');
    expectProblem(await scrape(world.app, world.adminA.token), 401, 'unauthenticated');
  });

  it('reads the Authorization header as the API does: the scheme in any case', async () => {
    for (const authorization of [`bearer ${METRICS_TOKEN}`, `BEARER  ${METRICS_TOKEN} `]) {
      const res = await world.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization },
      });
      expect(res.statusCode, authorization).toBe(200);
    }
    const wrong = await world.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Basic ${METRICS_TOKEN}` },
    });
    expectProblem(wrong, 401, 'unauthenticated');
  });

  it('has request durations by route and status, in-flight requests, market query times, queue lengths and the snapshot age', async () => {
    await call(world.app, { method: 'GET', url: '/api/v1/me', token: world.memberA.token });
    await call(world.app, {
      method: 'GET',
      url: '/api/v1/dossiers/5F0E7D8C-1B2A-4C3D-9E8F-0A1B2C3D4E5F',
      token: world.memberA.token,
    });
    await call(world.app, {
      method: 'POST',
      url: '/api/v1/offers/statistics',
      token: world.memberA.token,
      payload: {
        countryCode: 'AT',
        filters: { divisionLevel6: '900' },
        statistics: [{ type: 'count', metric: 'sale_price' }],
      },
    });
    const res = await scrape(world.app, METRICS_TOKEN);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    /** The value of the series `name` with (at least) these labels, in any order. */
    const value = (name: string, labels: Record<string, string>): number | undefined => {
      for (const line of text.split('\n')) {
        const match = /^(\w+)\{(.*)\} (\S+)$/.exec(line);
        if (match?.[1] !== name) continue;
        const has = Object.entries(labels).every(([k, v]) => match[2]?.includes(`${k}="${v}"`));
        if (has) return Number(match[3]);
      }
      return undefined;
    };
    const timed = (route: string, status: string) =>
      value('propdata_http_request_duration_seconds_count', { route, status });
    expect(timed('/api/v1/me', '200')).toBe(1);
    // The route's pattern, never the id in the URL.
    expect(timed('/api/v1/dossiers/:id', '404')).toBe(1);
    expect(text).not.toContain('5F0E7D8C');
    expect(text).toMatch(/pid="\d+"/);
    // The scrape itself is in flight while it is answered.
    expect(value('propdata_http_requests_in_flight', {})).toBe(1);
    expect(
      value('propdata_market_query_duration_seconds_count', {
        kind: 'statistics',
        outcome: 'done',
      }),
    ).toBe(1);
    for (const pool of ['costly_requests', 'pdf_checks']) {
      for (const state of ['running', 'waiting']) {
        expect(value('propdata_work_queue_length', { pool, state })).toBe(0);
      }
    }
    expect(value('propdata_market_snapshot_age_seconds', {})).toBeGreaterThanOrEqual(0);
  });
});
