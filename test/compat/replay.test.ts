import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/problem.js';
import { fixedValuer } from '../helpers/valuer.js';
import { call, createWorld, type World } from '../helpers/world.js';
import { expectShape } from './shape.js';

// Requests recorded by the public client libraries of the original service, replayed as sent:
// hausgold/pricehubble (Ruby, VCR cassettes recorded against the service),
// antistatique/pricehubble-php-sdk (PHP, unit tests, examples and README) and
// nmehlei/PriceHubbleDotNet (.NET, example program and models). The fixtures under fixtures/
// hold the request bodies (reduced to what matters) and the recorded answers whose shape is
// asserted. The valuation model is replaced by a fixed one: this is about the interface.

type Fixture = Record<string, { request?: object; response?: unknown; responseKeys?: string[] }>;
const fixture = (name: string): Fixture =>
  JSON.parse(fs.readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), 'utf8')) as Fixture;
const ruby = fixture('hausgold-pricehubble');
const php = fixture('antistatique-pricehubble-php-sdk');
const dotnet = fixture('nmehlei-PriceHubbleDotNet');

const req = (f: Fixture, key: string): object => {
  const request = f[key]?.request;
  if (!request) throw new Error(`no request ${key}`);
  return request;
};

describe('replay of the client libraries’ recorded requests', () => {
  let world: World;
  let token: string;
  beforeAll(async () => {
    world = await createWorld('sqlite', {
      app: { now: () => new Date('2026-11-23T09:00:00Z'), valueProperty: fixedValuer() },
    });
    token = world.memberA.token;
  });
  afterAll(() => world.close());

  // The Ruby gem sends its token as `access_token` query parameter.
  const post = (url: string, payload: object) =>
    call(world.app, { method: 'POST', url: `${url}?access_token=${token}`, payload });

  it('Ruby: the recorded valuation is answered in the recorded shape', async () => {
    const res = await post('/api/v1/valuation/property_value', req(ruby, 'valuation'));
    expect(res.statusCode, res.body).toBe(200);
    expectShape(res.json(), ruby.valuation?.response);
  });

  it('Ruby: a building year out of range is one error naming that field only', async () => {
    const problem = expectProblem(
      await post('/api/v1/valuation/property_value', req(ruby, 'valuationBad')),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual([
      { path: '/valuationInputs/0/property/buildingYear', message: 'must be <= 2100' },
    ]);
    expect(problem.message).toBe('valuationInputs[0].property.buildingYear must be <= 2100');
  });

  it('Ruby: a dossier is saved, read back with every field, and deleted with an empty JSON body', async () => {
    const created = await post('/api/v1/dossiers', req(ruby, 'dossier'));
    expect(created.statusCode, created.body).toBe(201);
    expectShape(created.json(), ruby.dossier?.response);
    const { id } = created.json<{ id: string }>();
    const read = await call(world.app, { method: 'GET', url: `/api/v1/dossiers/${id}`, token });
    expect(read.json()).toMatchObject({
      ...req(ruby, 'dossier'),
      property: { balconyArea: 30, isFurnished: false },
    });
    // The gem's DELETE: Content-Type application/json, no body.
    const del = () =>
      call(world.app, {
        method: 'DELETE',
        url: `/api/v1/dossiers/${id}?access_token=${token}`,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        payload: '',
      });
    expect((await del()).statusCode).toBe(204);
    const missing = expectProblem(await del(), 404, 'not_found');
    expectShape(missing, ruby.deleteMissing?.response);
  });

  it('PHP: the full valuation with a numeric postcode and the extra property fields', async () => {
    const res = await post('/api/v1/valuation/property_value', req(php, 'valuationFull'));
    expect(res.statusCode, res.body).toBe(200);
    expectShape(res.json(), ruby.valuation?.response);
  });

  it('.NET: date-times, returnScores and the whole property model are accepted', async () => {
    const res = await post('/api/v1/valuation/property_value', req(dotnet, 'valuation'));
    expect(res.statusCode, res.body).toBe(200);
    expectShape(res.json(), ruby.valuation?.response);
  });

  it('.NET: a dossier and a multi-family-house dossier are saved', async () => {
    for (const key of ['dossier', 'multiFamilyHouse']) {
      const res = await post('/api/v1/dossiers', req(dotnet, key));
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('an input with none of property and dossierId is one message, as the original names it', async () => {
    const problem = expectProblem(
      await post('/api/v1/valuation/property_value', {
        dealType: 'sale',
        countryCode: 'CH',
        valuationInputs: [{}],
      }),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual([
      { path: '/valuationInputs/0', message: 'must have property or dossierId' },
    ]);
    expectShape(problem, php.missingInput?.response);
  });
});
