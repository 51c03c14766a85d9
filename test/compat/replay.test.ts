import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/problem.js';
import { fixedValuer } from '../helpers/valuer.js';
import { call, createWorld, PASSWORD, type World } from '../helpers/world.js';
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

  it('Ruby and .NET: the recorded logins, with the right password and with a wrong one', async () => {
    // The recorded bodies with the credentials filled in, as each client sends them (the .NET
    // client writes the same two members in snake case, which they already are).
    const login = (key: 'login' | 'loginBad') =>
      call(world.app, {
        method: 'POST',
        url: '/auth/login/credentials',
        headers: { accept: 'application/json' },
        payload: JSON.parse(
          JSON.stringify(req(ruby, key))
            .replaceAll('<USERNAME>', world.memberA.username)
            .replaceAll('<PASSWORD>', PASSWORD),
        ) as object,
      });
    const ok = await login('login');
    expect(ok.statusCode, ok.body).toBe(200);
    expectShape(ok.json(), ruby.login?.response);
    const refused = await login('loginBad');
    expect(refused.statusCode).toBe(401);
    expectShape(refused.json(), ruby.loginBad?.response);
  });

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
    const deleted = await del();
    expect(deleted.statusCode).toBe(204);
    // Said to be JSON, so the gem parses the empty body (to nil) rather than keeping it as text.
    expect(deleted.headers['content-type']).toBe('application/json');
    const missing = expectProblem(await del(), 404, 'not_found');
    expectShape(missing, ruby.deleteMissing?.response);
  });

  it('Ruby 3.x: empty coordinates, and a date a year from now valued as of today', async () => {
    const res = await post('/api/v1/valuation/property_value', req(ruby, 'valuation3x'));
    expect(res.statusCode, res.body).toBe(200);
    expectShape(res.json(), ruby.valuation?.response);
    // 2025-11-25 is a day of the past; 2026-11-25 and 2027-11-25 lie after the test's today
    // (2026-11-23) and are both today's value.
    const [apartment] = res.json<{ valuations: { value: number }[][] }>().valuations;
    expect(apartment?.[1]?.value).toBe(apartment?.[2]?.value);
    const created = await post('/api/v1/dossiers', req(ruby, 'dossier3x'));
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: string }>();
    const read = await call(world.app, { method: 'GET', url: `/api/v1/dossiers/${id}`, token });
    expect(read.json()).toMatchObject({ property: { location: { precision: 'postcode' } } });
  });

  it('PHP: the full valuation with a numeric postcode and the extra property fields', async () => {
    const res = await post('/api/v1/valuation/property_value', req(php, 'valuationFull'));
    expect(res.statusCode, res.body).toBe(200);
    expectShape(res.json(), ruby.valuation?.response);
  });

  it('PHP: the recorded dossier, with images, a logo and its own fields, is saved and read back', async () => {
    const created = await post('/api/v1/dossiers', req(php, 'dossier'));
    expect(created.statusCode, created.body).toBe(201);
    expectShape(created.json(), php.dossier?.response);
    const read = await call(world.app, {
      method: 'GET',
      url: `/api/v1/dossiers/${created.json<{ id: string }>().id}`,
      token,
    });
    expect(read.json()).toMatchObject(req(php, 'dossier'));
  });

  it('PHP: a numeric postcode is kept as the text it stands for', async () => {
    const [input] = (req(php, 'valuationFull') as { valuationInputs: { property: object }[] })
      .valuationInputs;
    const created = await post('/api/v1/dossiers', {
      dealType: 'sale',
      countryCode: 'CH',
      property: input?.property,
    });
    expect(created.statusCode, created.body).toBe(201);
    const read = await call(world.app, {
      method: 'GET',
      url: `/api/v1/dossiers/${created.json<{ id: string }>().id}`,
      token,
    });
    expect(read.json()).toMatchObject({
      property: {
        location: { address: { postCode: '8037' }, precision: 'postcode' },
        gardenArea: 25,
        numberOfIndoorParkingSpaces: 1,
      },
    });
  });

  it('.NET: date-times, returnScores and the whole property model are accepted', async () => {
    const res = await post('/api/v1/valuation/property_value', req(dotnet, 'valuation'));
    expect(res.statusCode, res.body).toBe(200);
    expectShape(res.json(), ruby.valuation?.response);
    // The client's model types volumeStandard as a decimal: what it sends is a number.
    const numeric = JSON.parse(
      JSON.stringify(req(dotnet, 'valuation')).replace('"sia-416"', '416'),
    ) as object;
    const again = await post('/api/v1/valuation/property_value', numeric);
    expect(again.statusCode, again.body).toBe(200);
  });

  it('.NET: ValuationAsync, its dates in the input and the dossier beside it', async () => {
    const created = await post('/api/v1/dossiers', req(dotnet, 'dossier'));
    const { id } = created.json<{ id: string }>();
    const res = await post('/api/v1/valuation/property_value', {
      ...req(dotnet, 'valuationAsync'),
      dossierId: id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expectShape(res.json(), ruby.valuation?.response);
    // The whole answer's confidence (ValuationResponse.Confidence) is its one valuation's.
    const answer = res.json<{ confidence: string; valuations: { confidence: string }[][] }>();
    expect(answer.confidence).toBe(answer.valuations[0]?.[0]?.confidence);
    // The dossier's own valuation on that day, asked the usual way.
    const usual = await post('/api/v1/valuation/property_value', {
      dealType: 'sale',
      valuationDates: ['2026-11-01'],
      valuationInputs: [{ dossierId: id }],
      countryCode: 'DE',
    });
    expect(res.json<{ valuations: { value: number }[][] }>().valuations).toEqual(
      usual
        .json<{ valuations: { value: number }[][] }>()
        .valuations.map((row) => row.map((v) => ({ ...v, scores: expect.anything() as unknown }))),
    );
  });

  it('.NET: a dossier and a multi-family-house dossier are saved', async () => {
    for (const key of ['dossier', 'multiFamilyHouse']) {
      const res = await post('/api/v1/dossiers', req(dotnet, key));
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('PHP and .NET: the light valuation answers the Valuation itself, and wrapped as recorded', async () => {
    const sale = await post('/api/v1/valuation/property_value_light', {
      ...req(php, 'valuationLight'),
      // The PHP SDK leaves a caller's `language` in the body beside its Accept-Language.
      language: 'de',
    });
    expect(sale.statusCode, sale.body).toBe(200);
    // The PHP fixture's recorded answer (`valuations[0][0]`), and its item at the top too (the
    // .NET model reads `confidence`, `currency` and `valueRange` there).
    expectShape(sale.json(), php.valuationLight?.response);
    const recorded = (php.valuationLight?.response as { valuations: object[][] })
      .valuations[0]?.[0];
    expectShape(sale.json(), recorded);
    const rent = await post(
      '/api/v1/valuation/property_value_light',
      req(dotnet, 'valuationLight'),
    );
    expect(rent.statusCode, rent.body).toBe(200);
    const body = rent.json<Record<string, unknown>>();
    for (const key of [...(dotnet.valuationLight?.responseKeys ?? []), 'rentGross', 'rentNet']) {
      expect(body).toHaveProperty(key);
    }
    expect(body.rentGross).toBe(body.value);
  });

  it('.NET: dossier creation, its valuation with timelines, and a sharing link', async () => {
    const created = await post('/api/v1/dossiers', req(dotnet, 'dossier'));
    const { id } = created.json<{ id: string }>();
    const valuation = await post(
      `/api/v1/dossiers/${id}/valuation`,
      req(dotnet, 'dossierValuation'),
    );
    expect(valuation.statusCode, valuation.body).toBe(200);
    const body = valuation.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(
      [...(dotnet.dossierValuation?.responseKeys ?? [])].sort(),
    );
    const sale = body.valuationSale as Record<string, unknown>;
    for (const key of (dotnet.dossierValuation as { valuationKeys: string[] }).valuationKeys) {
      expect(sale).toHaveProperty(key);
    }
    expect(Number.isInteger(sale.value)).toBe(true);
    expect((body.valuationSaleTimeline as unknown[]).length).toBe(24);
    const share = await post('/api/v1/dossiers/links', { ...req(dotnet, 'share'), dossierId: id });
    expect(share.statusCode, share.body).toBe(201);
    for (const key of dotnet.share?.responseKeys ?? []) expect(share.json()).toHaveProperty(key);
  });

  it('Ruby: the recorded link request is answered with an id and a URL', async () => {
    const created = await post('/api/v1/dossiers', req(ruby, 'dossier'));
    const { id } = created.json<{ id: string }>();
    const res = await post('/api/v1/dossiers/links', { ...req(ruby, 'link'), dossierId: id });
    expect(res.statusCode, res.body).toBe(201);
    expectShape(res.json(), ruby.link?.response);
  });

  it('PHP: points of interest in the recorded shape, empty where there are no places', async () => {
    const res = await post('/api/v1/pois', req(php, 'pois'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ items: [], totalItems: 0 });
    const recorded = php.pois?.response as { items: unknown[] };
    expectShape({ ...res.json<object>(), items: recorded.items }, recorded);
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
      { path: '/valuationInputs/0/property', message: 'is required unless dossierId is given' },
    ]);
    expectShape(problem, php.missingInput?.response);
  });
});
