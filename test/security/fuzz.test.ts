import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogRoute } from '../../src/http/auth.js';
import { describeBackends } from '../helpers/backends.js';
import { accountState, expectPageRefusal, expectRefusal, FUZZ_SEED } from '../helpers/fuzz.js';
import { call, createWorld, type World } from '../helpers/world.js';

/*
 * Every route with a body, query or path parameter gets at least 200 generated malformed
 * requests: wrong types, missing and extra fields, huge and tiny numbers, long and odd Unicode,
 * prototype keys, broken JSON, wrong content types. Every answer must be a 4xx problem+json
 * (never a 5xx), and the account store must be byte-for-byte unchanged afterwards. Routes come
 * from the app's own catalog, so a new route is fuzzed without anyone remembering to add it.
 */

const RUNS_PER_ROUTE = 200;

const oddString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uFEFF',
    '\u202E',
    '💥'.repeat(50),
    "' or 1=1 --",
    '../../etc',
  ),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
);
const oddNumber = fc.oneof(
  fc.double(),
  fc.constantFrom(0, -0, -1, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, 2 ** 63),
  fc.integer(),
);
const oddKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', ''),
  fc.string({ maxLength: 12 }),
);
const oddValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    oddString,
    oddNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(oddKey, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** A payload and the headers it travels with. */
interface Attempt {
  body?: string;
  contentType?: string;
  query?: string;
  param?: string;
}

const toJson = (value: unknown) =>
  JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'number' && !Number.isFinite(v) ? 1e308 : v,
  );

const bodyAttempt: fc.Arbitrary<Attempt> = fc.oneof(
  // Random JSON documents, often objects with prototype keys spelled out literally.
  oddValue.map((v) => ({ body: toJson(v), contentType: 'application/json' })),
  fc.tuple(oddKey, oddValue).map(([k, v]) => ({
    body: `{"${k.replaceAll('"', '')}": ${toJson(v)}}`,
    contentType: 'application/json',
  })),
  fc
    .constantFrom(
      '{"__proto__": {"isAdmin": true}}',
      '{"constructor": {"prototype": {"polluted": 1}}}',
    )
    .map((body) => ({ body, contentType: 'application/json' })),
  // Broken JSON.
  fc
    .constantFrom('{', '{"a":', '[1,2', 'nul', '{"a":1}}', '\u0000', '{"a":NaN}', '{a:1}', '')
    .map((body) => ({ body, contentType: 'application/json' })),
  // Wrong content types.
  fc
    .tuple(
      fc.constantFrom(
        'text/plain',
        'application/xml',
        'application/x-www-form-urlencoded',
        'image/png',
      ),
      fc.string({ maxLength: 30 }),
    )
    .map(([contentType, body]) => ({ body, contentType })),
);

// At least one parameter no route knows, so that the request is wrong whatever else is drawn.
const queryAttempt: fc.Arbitrary<Attempt> = fc
  .tuple(
    fc.constantFrom('unknown', 'limit[]', 'q[x]', '%00', 'filters.radius'),
    fc.array(fc.tuple(oddKey, fc.oneof(oddString, oddNumber.map(String))), { maxLength: 3 }),
  )
  .map(([unknown, pairs]) => ({
    query: [[unknown, '1'] as const, ...pairs]
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v.slice(0, 5000))}`)
      .join('&'),
  }));

const paramAttempt: fc.Arbitrary<Attempt> = fc
  .oneof(oddString, oddNumber.map(String))
  .filter((s) => s.length > 0)
  .map((s) => ({ param: encodeURIComponent(s.slice(0, 2000)) }));

const hasBody = (route: CatalogRoute) => ['POST', 'PUT', 'PATCH'].includes(route.method);
const hasParams = (route: CatalogRoute) => route.url.includes(':');

/** What a route receives when a part is not being fuzzed: plausible values. */
function url(route: CatalogRoute, attempt: Attempt): string {
  const path = route.url.replace(/:(\w+)/g, (_, name: string) => {
    if (attempt.param !== undefined) return attempt.param;
    return (
      { countryCode: 'AT', level: '8', scope: 'user', side: 'front' }[name] ??
      '5f0e7d8c-1b2a-4c3d-9e8f-0a1b2c3d4e5f'
    );
  });
  return attempt.query !== undefined ? `${path}?${attempt.query}` : path;
}

describeBackends('fuzzing every route', (backend) => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(() => world.close());

  const fuzzed = () =>
    world.app.routeCatalog.filter((r) => r.auth !== 'none' || hasBody(r) || r.url.includes(':'));

  it('fuzzes at least one route per feature', () => {
    expect(fuzzed().length).toBeGreaterThan(10);
  });

  it(
    'answers malformed input on every route with a 4xx problem+json and changes nothing',
    { timeout: 600_000 },
    async () => {
      const before = await accountState(world.stores.accounts.db);
      for (const route of fuzzed()) {
        const attempts = fc.oneof(
          ...(hasBody(route) ? [bodyAttempt] : []),
          ...(hasParams(route) ? [paramAttempt] : []),
          queryAttempt,
        );
        await fc.assert(
          fc.asyncProperty(attempts, async (attempt) => {
            const res = await call(world.app, {
              method: route.method as 'GET',
              url: url(route, attempt),
              token: world.adminA.token,
              ...(attempt.body !== undefined ? { payload: attempt.body } : {}),
              headers: attempt.contentType ? { 'content-type': attempt.contentType } : {},
            });
            (route.url.startsWith('/shared/') ? expectPageRefusal : expectRefusal)(
              res,
              `${route.method} ${route.url} ${JSON.stringify(attempt).slice(0, 300)}`,
            );
          }),
          { numRuns: RUNS_PER_ROUTE, seed: FUZZ_SEED },
        );
      }
      expect(await accountState(world.stores.accounts.db)).toBe(before);
    },
  );
});
