import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createWorld, loggingInto, type World } from '../../test/helpers/world.js';
import { expectProblem } from '../../test/helpers/problem.js';
import { InsufficientDataError } from '../valuation/errors.js';
import { QueueRefusal } from '../work/fair-queue.js';
import { QueryDeadlineExceeded } from '../work/query-deadline.js';
import { toAppError } from './errors.js';
import { AppError } from './problem.js';

describe('problem+json errors', () => {
  let world: World;
  const log: string[] = [];
  beforeAll(async () => {
    world = await createWorld('sqlite', {
      ...loggingInto(log),
      beforeReady(app) {
        app.get('/api/v1/test/busy', { config: { auth: 'none' } }, () => {
          throw new AppError('overloaded', 'The server is overloaded; retry later', {
            headers: { 'retry-after': '10' },
          });
        });
        app.get('/api/v1/test/boom', { config: { auth: 'none' } }, () => {
          throw new Error('SELECT secret FROM internal_table failed at /srv/app.ts:42');
        });
        app.get('/api/v1/test/conflict', { config: { auth: 'none' } }, () => {
          throw new AppError('conflict', 'Already there');
        });
        app.get('/api/v1/test/no-data', { config: { auth: 'none' } }, () => {
          throw new InsufficientDataError('too few comparable sale offers');
        });
      },
    });
  });
  afterAll(() => world.close());

  const login = (payload: unknown, contentType = 'application/json') =>
    call(world.app, {
      method: 'POST',
      url: '/auth/login/credentials',
      headers: { 'content-type': contentType },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('400 names a missing field', async () => {
    const body = expectProblem(await login({ username: 'x' }), 400, 'validation_failed');
    expect(body.errors).toContainEqual({ path: '/password', message: 'is required' });
    expect(body.detail).toContain('password is required');
  });

  it('400 refuses unknown properties instead of dropping them', async () => {
    const body = expectProblem(
      await login({ username: 'x', password: 'y', admin: true }),
      400,
      'validation_failed',
    );
    expect(body.errors).toContainEqual({ path: '/admin', message: 'is not allowed' });
  });

  it('400 repeats at most 200 characters of a field’s path, however long the key sent', async () => {
    const long = Object.fromEntries([1, 2, 3].map((i) => [`${String(i)}${'k'.repeat(50_000)}`, 1]));
    const res = await login({ username: 'x', password: 'y', ...long });
    const body = expectProblem(res, 400, 'validation_failed');
    expect(body.errors).toHaveLength(3);
    for (const error of body.errors ?? []) {
      expect(error.path).toHaveLength(200);
      expect(error.path).toMatch(/^\/\dk+…$/);
    }
    expect(res.body.length).toBeLessThan(5_000);
  });

  it('400 does not coerce JSON types', async () => {
    const body = expectProblem(
      await login({ username: 5, password: 'y' }),
      400,
      'validation_failed',
    );
    expect(body.errors?.[0]?.path).toBe('/username');
  });

  it('400 for broken JSON and for an empty JSON body', async () => {
    expectProblem(await login('{"username": '), 400, 'invalid_json');
    expectProblem(await login(''), 400, 'invalid_json');
  });

  it('400 for __proto__ and constructor.prototype keys, saying that is why', async () => {
    for (const body of [
      '{"__proto__": {"x": 1}, "username": "a", "password": "b"}',
      '{"constructor": {"prototype": {"x": 1}}, "username": "a", "password": "b"}',
    ]) {
      const problem = expectProblem(await login(body), 400, 'invalid_json');
      expect(problem.detail).toMatch(/"__proto__" or "constructor"."prototype" key/);
    }
    // Malformed JSON is still said to be malformed.
    expect(expectProblem(await login('{"__proto__": '), 400, 'invalid_json').detail).toMatch(
      /not valid JSON/,
    );
  });

  it('415 for a body that is not JSON', async () => {
    const body = expectProblem(
      await login('username=a', 'text/plain'),
      415,
      'unsupported_media_type',
    );
    expect(body.detail).toBe('Content-Type must be application/json');
  });

  it('413 for a body over the limit', async () => {
    const big = JSON.stringify({ username: 'a', password: 'x'.repeat(1024 * 1024 + 10) });
    expectProblem(await login(big), 413, 'payload_too_large');
  });

  it('404 for unknown routes', async () => {
    const body = expectProblem(
      await call(world.app, { method: 'GET', url: '/api/v1/nope' }),
      404,
      'not_found',
    );
    expect(body.detail).toBe('No route GET /api/v1/nope');
  });

  it('405 with Allow for a known path and a wrong method', async () => {
    const res = await call(world.app, { method: 'DELETE', url: '/auth/login/credentials' });
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('POST');
  });

  it('405, not a refused id, for a path of its own under a route with an id', async () => {
    // `/user-settings/templates/list` is a POST route; GET, PUT and DELETE would reach
    // `/user-settings/templates/{id}` with the id "list".
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await call(world.app, {
        method,
        url: '/api/v1/user-settings/templates/list',
        token: world.memberA.token,
        ...(method === 'PUT' ? { payload: {} } : {}),
      });
      const body = expectProblem(res, 405, 'method_not_allowed');
      expect(body.detail).toBe(`${method} is not allowed on /api/v1/user-settings/templates/list`);
      expect(res.headers.allow).toBe('POST');
    }
    // A malformed id on a path that is nobody's own route stays a 400 naming the id.
    const res = await call(world.app, {
      method: 'GET',
      url: '/api/v1/user-settings/templates/lists',
      token: world.memberA.token,
    });
    expectProblem(res, 400, 'validation_failed');
  });

  it('404, not 405, for a path no route takes with those parameters', async () => {
    // `/dossiers/search` would be `/dossiers/{id}` only with "search" as an id, which no method
    // of that route takes: an Allow naming them would send a client to another refusal.
    const search = await call(world.app, {
      method: 'POST',
      url: '/api/v1/dossiers/search',
      token: world.memberA.token,
      payload: {},
    });
    const body = expectProblem(search, 404, 'not_found');
    expect(body.detail).toBe('No route POST /api/v1/dossiers/search');
    expect(search.headers.allow).toBeUndefined();
    // With an id, the path is the route's: a 405 naming its methods, as before.
    const id = await call(world.app, {
      method: 'POST',
      url: '/api/v1/dossiers/0F8FAD5B-D9CB-469F-A165-70867728950E',
      token: world.memberA.token,
      payload: {},
    });
    expectProblem(id, 405, 'method_not_allowed');
    expect(id.headers.allow).toBe('GET, HEAD, PUT, PATCH, DELETE');
  });

  it('404, not 405, for a missing file under a route of the right method', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await call(world.app, { method, url: '/docs/static/nope.js' });
      expect(res.statusCode).toBe(404);
      expect(res.headers.allow).toBeUndefined();
    }
    const wrong = await call(world.app, { method: 'DELETE', url: '/docs/static/index.html' });
    expectProblem(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.allow).toBe('GET, HEAD');
  });

  it.each([
    [
      '409 from an AppError keeps its code and detail',
      'conflict',
      409,
      'conflict',
      'Already there',
    ],
    [
      '422 from the valuation model: the data cannot support a value',
      'no-data',
      422,
      'insufficient_data',
      'too few comparable sale offers',
    ],
  ] as const)('%s', async (_name, path, status, code, detail) => {
    const res = await call(world.app, { method: 'GET', url: `/api/v1/test/${path}` });
    expect(expectProblem(res, status, code).detail).toBe(detail);
  });

  it('503 overloaded is logged as a warning without a stack, a 500 as an error with one', async () => {
    log.length = 0;
    expectProblem(
      await call(world.app, { method: 'GET', url: '/api/v1/test/busy' }),
      503,
      'overloaded',
    );
    await call(world.app, { method: 'GET', url: '/api/v1/test/boom' });
    const entries = log.map(
      (line) => JSON.parse(line) as { level: number; msg: string; err?: { stack?: string } },
    );
    const shed = entries.find((e) => e.msg === 'request shed');
    expect(shed?.level).toBe(40);
    expect(JSON.stringify(shed)).not.toMatch(/stack|\n\s+at /);
    const failed = entries.find((e) => e.msg === 'request failed');
    expect(failed?.level).toBe(50);
    expect(failed?.err?.stack).toBeDefined();
  });

  it('500 reveals nothing internal', async () => {
    const res = await call(world.app, { method: 'GET', url: '/api/v1/test/boom' });
    const body = expectProblem(res, 500, 'internal');
    expect(body.detail).toBe('Internal server error');
    expect(res.body).not.toMatch(/SELECT|internal_table|app\.ts|stack/);
  });
});

describe('refusals of the budget for costly work', () => {
  it.each([
    [new QueueRefusal('organization_busy', 'too much waiting'), 429, 'rate_limited'],
    [new QueueRefusal('wait_too_long', 'no turn in time'), 503, 'overloaded'],
    [new QueryDeadlineExceeded(15_000), 503, 'overloaded'],
  ] as const)('%s → %i %s with Retry-After', (error, status, code) => {
    const answer = toAppError(error as never);
    expect(answer).toMatchObject({ status, code, headers: { 'retry-after': '2' } });
  });

  it('says how long the market queries were allowed', () => {
    expect(toAppError(new QueryDeadlineExceeded(15_000) as never).detail).toMatch(
      /took longer than 15 s and were stopped/,
    );
  });
});
