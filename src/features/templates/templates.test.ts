import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { call, createWorld, type Member, type World } from '../../../test/helpers/world.js';
import { addMember, createdId as created } from '../../../test/helpers/fixtures.js';
import { createOrganization } from '../../accounts/organizations.js';
import type { Problem } from '../../http/problem.js';
import { limits } from '../../limits.js';
import { defaultSections, providerTemplateId } from './provider-templates.js';
import { TEMPLATE_COUNTRIES, type Layout, type TemplateCountry } from './section-rules.js';
import type { TemplateContent } from './schemas.js';
import { checkSections } from './validate.js';

const BASE = '/api/v1/user-settings/templates';

type Listed = TemplateContent & { uuid: string };

function body(
  country: TemplateCountry = 'SK',
  layout: Layout = 'brochure',
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    title: `${layout} ${country}`,
    level: 'user',
    countryCode: country,
    sections: defaultSections(country, layout),
    ...over,
  };
}

function api(world: World) {
  return {
    list: (who: Member, countryCode: string) =>
      call(world.app, {
        method: 'POST',
        url: `${BASE}/list`,
        token: who.token,
        payload: { countryCode },
      }),
    create: (who: Member, payload: Record<string, unknown>) =>
      call(world.app, { method: 'POST', url: `${BASE}/`, token: who.token, payload }),
    get: (who: Member, id: string) =>
      call(world.app, { method: 'GET', url: `${BASE}/${id}`, token: who.token }),
    put: (who: Member, id: string, payload: Record<string, unknown>) =>
      call(world.app, { method: 'PUT', url: `${BASE}/${id}`, token: who.token, payload }),
    del: (who: Member, id: string) =>
      call(world.app, { method: 'DELETE', url: `${BASE}/${id}`, token: who.token }),
  };
}

const withoutRequestId = (problem: Problem) => ({ ...problem, requestId: '' });

describeBackends('report templates', (backend) => {
  let world: World;
  let t: ReturnType<typeof api>;
  beforeAll(async () => {
    world = await createWorld(backend);
    t = api(world);
  });
  afterAll(() => world.close());

  describe('provider templates', () => {
    it.each(TEMPLATE_COUNTRIES)(
      '%s has an appraisal and a brochure template that every organization sees',
      async (country) => {
        const forA = await t.list(world.memberA, country);
        const forB = await t.list(world.adminB, country);
        expect(forA.statusCode).toBe(200);
        const providerA = forA.json<Listed[]>().filter((x) => x.level === 'provider');
        const providerB = forB.json<Listed[]>().filter((x) => x.level === 'provider');
        expect(providerB).toEqual(providerA);
        expect(
          providerA.map((x) => [x.uuid, x.title, x.sections[0]?.configuration.layout]),
        ).toEqual([
          [providerTemplateId(country, 'appraisal'), 'Appraisal report', 'appraisal'],
          [providerTemplateId(country, 'brochure'), 'Sales brochure', 'brochure'],
        ]);
        for (const provider of providerA) {
          expect(provider.countryCode).toBe(country);
          expect(checkSections(provider.sections, country)).toEqual([]);
          const read = await t.get(world.memberB, provider.uuid);
          const content = Object.fromEntries(
            Object.entries(provider).filter(([key]) => key !== 'uuid'),
          );
          expect(read.json()).toEqual([content]);
        }
      },
    );

    it.each(TEMPLATE_COUNTRIES)(
      '%s: a copy of a provider template is accepted, a section less or a foreign one refused',
      async (country) => {
        const list = (await t.list(world.memberA, country)).json<Listed[]>();
        const appraisal = list.find((x) => x.uuid === providerTemplateId(country, 'appraisal'));
        expect(appraisal).toBeDefined();
        const sections = appraisal?.sections ?? [];
        const copy = { title: 'Copy', level: 'user', countryCode: country, sections };
        const id = await created(t.create(world.memberA, copy));
        expect((await t.get(world.memberA, id)).json<TemplateContent[]>()[0]?.sections).toEqual(
          sections,
        );
        expect((await t.del(world.memberA, id)).statusCode).toBe(204);

        const last = sections.at(-1);
        const shorter = await t.create(world.memberA, { ...copy, sections: sections.slice(0, -1) });
        const problem = expectProblem(shorter, 400, 'validation_failed');
        expect(problem.errors).toEqual([
          {
            path: '/sections',
            message: `must include the ${last?.type ?? ''} section in ${country}`,
          },
        ]);

        const foreign = country === 'CH' ? 'cadastre' : 'market';
        const from = country === 'CH' ? 'FR' : 'CH';
        const extra = defaultSections(from, 'appraisal').find((s) => s.type === foreign);
        const wider = await t.create(world.memberA, { ...copy, sections: [...sections, extra] });
        expect(expectProblem(wider, 400, 'validation_failed').errors).toEqual([
          {
            path: `/sections/${sections.length}/type`,
            message: `${foreign} is not available in ${country} (only ${from})`,
          },
        ]);
      },
    );
  });

  describe('create and read', () => {
    it('fills in the defaults and reads back exactly the fields of the interface document', async () => {
      const id = await created(t.create(world.memberA, body('AT', 'appraisal')));
      const res = await t.get(world.memberA, id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([
        {
          title: 'appraisal AT',
          level: 'user',
          countryCode: 'AT',
          rentType: 'rent_gross',
          frontCover: true,
          backCover: true,
          sections: defaultSections('AT', 'appraisal'),
        },
      ]);
    });

    it('creates with or without the trailing slash of the path', async () => {
      const res = await call(world.app, {
        method: 'POST',
        url: BASE,
        token: world.memberA.token,
        payload: body('CZ', 'appraisal'),
      });
      const id = await created(Promise.resolve(res));
      expect((await t.del(world.memberA, id)).statusCode).toBe(204);
    });

    it('keeps the values given and the order of the sections', async () => {
      const sections = defaultSections('CH', 'brochure')
        .reverse()
        .map((s, i) => ({ ...s, enabled: i % 3 !== 0 }));
      const id = await created(
        t.create(
          world.memberA,
          body('CH', 'brochure', {
            rentType: 'rent_net',
            frontCover: false,
            backCover: false,
            sections,
          }),
        ),
      );
      const [read] = (await t.get(world.memberA, id)).json<TemplateContent[]>();
      expect(read).toMatchObject({ rentType: 'rent_net', frontCover: false, backCover: false });
      expect(read?.sections).toEqual(sections);
    });

    it('takes an empty configuration sent as [] (how PHP encodes an empty array) as {}', async () => {
      const sections = defaultSections('FR', 'appraisal');
      const empty = sections.filter((s) => Object.keys(s.configuration).length === 0);
      expect(empty.length).toBeGreaterThan(0);
      const asPhp = sections.map((s) =>
        Object.keys(s.configuration).length === 0 ? { ...s, configuration: [] } : s,
      );
      const id = await created(
        t.create(world.memberA, body('FR', 'appraisal', { sections: asPhp })),
      );
      const [read] = (await t.get(world.memberA, id)).json<TemplateContent[]>();
      expect(read?.sections).toEqual(sections);
      // An array with anything in it is still no configuration.
      const [first] = asPhp;
      const refused = await t.create(
        world.memberA,
        body('FR', 'appraisal', {
          sections: [{ ...first, configuration: [1] }, ...asPhp.slice(1)],
        }),
      );
      expect(expectProblem(refused, 400, 'validation_failed').errors?.[0]?.path).toBe(
        '/sections/0/configuration',
      );
    });

    it('trims the title and refuses a blank or too long one', async () => {
      const id = await created(
        t.create(world.memberA, body('SK', 'brochure', { title: '  Spaced  ' })),
      );
      expect((await t.get(world.memberA, id)).json<TemplateContent[]>()[0]?.title).toBe('Spaced');
      await created(t.create(world.memberA, body('SK', 'brochure', { title: 'é'.repeat(200) })));

      for (const title of [' \t ', '\u200b\u2060 \u00ad']) {
        const blank = await t.create(world.memberA, body('SK', 'brochure', { title }));
        expect(expectProblem(blank, 400, 'validation_failed').errors).toEqual([
          { path: '/title', message: 'must not be blank' },
        ]);
      }
      const long = await t.create(
        world.memberA,
        body('SK', 'brochure', { title: 'x'.repeat(201) }),
      );
      expect(expectProblem(long, 400, 'validation_failed').errors?.[0]?.path).toBe('/title');
      const empty = await t.create(world.memberA, body('SK', 'brochure', { title: '' }));
      expect(expectProblem(empty, 400, 'validation_failed').errors?.[0]?.path).toBe('/title');
      // Refused alike on every backend (PostgreSQL text cannot hold it at all).
      const nul = await t.create(world.memberA, body('SK', 'brochure', { title: 'A\u0000B' }));
      expect(expectProblem(nul, 400, 'validation_failed').errors).toEqual([
        { path: '/title', message: 'must not contain the character U+0000' },
      ]);
    });

    it('refuses control and bidirectional formatting characters in the title', async () => {
      for (const title of ['Report\u202Efdp.exe', 'Report\u001B[31m', 'Two\nlines']) {
        const res = await t.create(world.memberA, body('SK', 'brochure', { title }));
        expect(expectProblem(res, 400, 'validation_failed').errors?.[0]?.path).toBe('/title');
      }
      await created(t.create(world.memberA, body('SK', 'brochure', { title: 'Zpráva 📄' })));
    });

    it('refuses unsupported countries with unsupported_country', async () => {
      for (const country of ['US', 'de', 'DEU', '']) {
        const list = await t.list(world.memberA, country);
        expect(expectProblem(list, 400, 'unsupported_country').errors?.[0]?.path).toBe(
          '/countryCode',
        );
        const create = await t.create(
          world.memberA,
          body('DE', 'brochure', { countryCode: country }),
        );
        expectProblem(create, 400, 'unsupported_country');
      }
    });

    it('refuses malformed bodies naming the field, and stores nothing', async () => {
      const before = (await t.list(world.memberA, 'NL')).json<Listed[]>().length;
      const cases: [Record<string, unknown>, string][] = [
        [body('NL', 'brochure', { colour: 'red' }), '/colour'],
        [body('NL', 'brochure', { rentType: 'rent_cold' }), '/rentType'],
        [body('NL', 'brochure', { frontCover: 'yes' }), '/frontCover'],
        [body('NL', 'brochure', { level: 'team' }), '/level'],
        [body('NL', 'brochure', { sections: 'all' }), '/sections'],
        [{ ...body('NL', 'brochure'), title: undefined }, '/title'],
        [{ ...body('NL', 'brochure'), sections: undefined }, '/sections'],
        [
          body('NL', 'brochure', {
            sections: defaultSections('NL', 'brochure').map((s, i) =>
              i === 1 ? { ...s, type: 'summary' } : s,
            ),
          }),
          '/sections/1/type',
        ],
        [
          body('NL', 'brochure', {
            sections: defaultSections('NL', 'brochure').map((s, i) =>
              i === 2 ? { type: s.type, configuration: s.configuration } : s,
            ),
          }),
          '/sections/2/enabled',
        ],
        [
          body('NL', 'brochure', {
            sections: defaultSections('NL', 'brochure').map((s, i) =>
              i === 3 ? { type: s.type, enabled: true } : s,
            ),
          }),
          '/sections/3/configuration',
        ],
        [
          body('NL', 'brochure', {
            sections: defaultSections('NL', 'brochure').map((s, i) =>
              i === 1 ? { ...s, configuration: { ...s.configuration, offers: 'true' } } : s,
            ),
          }),
          '/sections/1/configuration/offers',
        ],
      ];
      for (const [payload, path] of cases) {
        const res = await t.create(world.memberA, payload);
        const problem = expectProblem(res, 400, 'validation_failed');
        expect(
          problem.errors?.map((e) => e.path),
          JSON.stringify(payload).slice(0, 80),
        ).toContain(path);
      }
      expect((await t.list(world.memberA, 'NL')).json<Listed[]>()).toHaveLength(before);
    });

    it('documents every route, with an example body the API accepts', async () => {
      interface Operation {
        description?: string;
        requestBody?: { content: Record<string, { example?: Record<string, unknown> }> };
        responses: Record<string, unknown>;
      }
      const res = await call(world.app, { method: 'GET', url: '/api/v1/openapi.json' });
      const paths = res.json<{ paths: Record<string, Record<string, Operation>> }>().paths;
      const item = paths[`${BASE}/{id}`];
      expect(Object.keys(paths[`${BASE}/list`] ?? {})).toEqual(['post']);
      expect(Object.keys(item ?? {}).sort()).toEqual(['delete', 'get', 'put']);
      expect(Object.keys(item?.put?.responses ?? {})).toEqual(
        expect.arrayContaining(['204', '400', '401', '403', '404']),
      );
      const create = paths[`${BASE}/`]?.post;
      expect(create?.description).toMatch(/At most 100 user templates per user/);
      expect(Object.keys(create?.responses ?? {})).toEqual(
        expect.arrayContaining(['201', '400', '401', '403', '409']),
      );
      const example = create?.requestBody?.content['application/json']?.example;
      expect(example).toBeDefined();
      const id = await created(t.create(world.memberA, example ?? {}));
      expect((await t.del(world.memberA, id)).statusCode).toBe(204);
    });

    it('refuses an id that is not a UUID', async () => {
      const res = await t.get(world.memberA, 'not-a-uuid');
      expect(expectProblem(res, 400, 'validation_failed').errors?.[0]?.path).toBe('/id');
    });

    it('needs a token on every route', async () => {
      const id = providerTemplateId('DE', 'appraisal');
      const requests = [
        { method: 'POST' as const, url: `${BASE}/list`, payload: { countryCode: 'DE' } },
        { method: 'POST' as const, url: `${BASE}/`, payload: body() },
        { method: 'GET' as const, url: `${BASE}/${id}` },
        { method: 'PUT' as const, url: `${BASE}/${id}`, payload: body() },
        { method: 'DELETE' as const, url: `${BASE}/${id}` },
      ];
      for (const request of requests) {
        expectProblem(await call(world.app, request), 401, 'unauthenticated');
      }
    });
  });

  describe('replace', () => {
    it('replaces the whole template: left-out optional fields take their defaults again', async () => {
      const id = await created(
        t.create(
          world.memberA,
          body('BE', 'brochure', { rentType: 'rent_net', frontCover: false }),
        ),
      );
      const sections = defaultSections('BE', 'appraisal').map((s) => ({ ...s, enabled: false }));
      const res = await t.put(
        world.memberA,
        id,
        body('BE', 'appraisal', { title: ' New ', sections }),
      );
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await t.get(world.memberA, id)).json()).toEqual([
        {
          title: 'New',
          level: 'user',
          countryCode: 'BE',
          rentType: 'rent_gross',
          frontCover: true,
          backCover: true,
          sections,
        },
      ]);
    });

    it('answers 204 to a replacement that changes nothing', async () => {
      const id = await created(t.create(world.memberA, body('CZ', 'brochure')));
      expect((await t.put(world.memberA, id, body('CZ', 'brochure'))).statusCode).toBe(204);
      expect((await t.put(world.memberA, id, body('CZ', 'brochure'))).statusCode).toBe(204);
      expect((await t.del(world.memberA, id)).statusCode).toBe(204);
    });

    it('may move a template to another country, with that country’s sections', async () => {
      const id = await created(t.create(world.memberA, body('BE', 'brochure')));
      const wrong = await t.put(
        world.memberA,
        id,
        body('FR', 'brochure', { sections: defaultSections('BE', 'brochure') }),
      );
      expectProblem(wrong, 400, 'validation_failed');
      expect((await t.get(world.memberA, id)).json<TemplateContent[]>()[0]?.countryCode).toBe('BE');
      expect((await t.put(world.memberA, id, body('FR', 'brochure'))).statusCode).toBe(204);
      expect((await t.get(world.memberA, id)).json<TemplateContent[]>()[0]?.countryCode).toBe('FR');
    });

    it('validates like creation and changes nothing when refused', async () => {
      const id = await created(t.create(world.memberA, body('DE', 'appraisal')));
      const original = (await t.get(world.memberA, id)).json<unknown>();
      const sections = defaultSections('DE', 'appraisal').filter((s) => s.type !== 'valuation');
      const bad = [
        body('DE', 'appraisal', { sections }),
        body('DE', 'appraisal', { title: '   ' }),
        body('DE', 'appraisal', { extra: 1 }),
      ];
      for (const payload of bad) {
        expectProblem(await t.put(world.memberA, id, payload), 400, 'validation_failed');
      }
      expectProblem(
        await t.put(world.memberA, id, body('DE', 'appraisal', { countryCode: 'XX' })),
        400,
        'unsupported_country',
      );
      expect((await t.get(world.memberA, id)).json()).toEqual(original);
    });

    it('refuses to change the level', async () => {
      const userTemplate = await created(t.create(world.adminA, body('AT', 'brochure')));
      const orgTemplate = await created(
        t.create(world.adminA, body('AT', 'brochure', { level: 'organization' })),
      );
      const toOrg = await t.put(
        world.adminA,
        userTemplate,
        body('AT', 'brochure', { level: 'organization' }),
      );
      expect(expectProblem(toOrg, 400, 'validation_failed').errors).toEqual([
        { path: '/level', message: 'must stay user' },
      ]);
      const toUser = await t.put(
        world.adminA,
        orgTemplate,
        body('AT', 'brochure', { level: 'user' }),
      );
      expect(expectProblem(toUser, 400, 'validation_failed').errors?.[0]?.path).toBe('/level');
      const toProvider = await t.put(
        world.adminA,
        orgTemplate,
        body('AT', 'brochure', { level: 'provider' }),
      );
      expectProblem(toProvider, 400, 'validation_failed');
    });
  });

  describe('list order', () => {
    it('lists provider, then organization, then own templates, each by creation time', async () => {
      const adminA2 = await addMember(world, world.adminA.organizationId, 'admin-a-order', true);
      const ids = [];
      ids.push(await created(t.create(world.memberA, body('JP', 'brochure', { title: 'u1' }))));
      ids.push(
        await created(
          t.create(world.adminA, body('JP', 'brochure', { title: 'o1', level: 'organization' })),
        ),
      );
      ids.push(await created(t.create(world.memberA, body('JP', 'appraisal', { title: 'u2' }))));
      ids.push(
        await created(
          t.create(adminA2, body('JP', 'appraisal', { title: 'o2', level: 'organization' })),
        ),
      );
      ids.push(
        await created(t.create(world.adminA, body('JP', 'brochure', { title: 'admin own' }))),
      );
      ids.push(
        await created(
          t.create(
            world.adminB,
            body('JP', 'brochure', { title: 'other org', level: 'organization' }),
          ),
        ),
      );
      ids.push(
        await created(t.create(world.memberA, body('SK', 'brochure', { title: 'other country' }))),
      );

      const titles = async (who: Member) =>
        (await t.list(who, 'JP')).json<Listed[]>().map((x) => x.title);
      expect(await titles(world.memberA)).toEqual([
        'Appraisal report',
        'Sales brochure',
        'o1',
        'o2',
        'u1',
        'u2',
      ]);
      expect(await titles(world.adminA)).toEqual([
        'Appraisal report',
        'Sales brochure',
        'o1',
        'o2',
        'admin own',
      ]);
      expect(await titles(world.memberB)).toEqual([
        'Appraisal report',
        'Sales brochure',
        'other org',
      ]);

      const listed = (await t.list(world.memberA, 'JP')).json<Listed[]>();
      expect(listed[2]).toEqual({
        uuid: ids[1],
        title: 'o1',
        level: 'organization',
        countryCode: 'JP',
        rentType: 'rent_gross',
        frontCover: true,
        backCover: true,
        sections: defaultSections('JP', 'brochure'),
      });
    });
  });

  describe('levels and permissions', () => {
    type Who =
      'creator' | 'otherMember' | 'admin' | 'otherAdmin' | 'otherOrgMember' | 'otherOrgAdmin';
    type Target = 'user' | 'organization' | 'provider';
    let people: Record<Who, Member>;

    beforeAll(async () => {
      const orgA = world.adminA.organizationId;
      people = {
        creator: world.memberA,
        otherMember: await addMember(world, orgA, 'member-a-other', false),
        admin: world.adminA,
        otherAdmin: await addMember(world, orgA, 'admin-a-other', true),
        otherOrgMember: world.memberB,
        otherOrgAdmin: world.adminB,
      };
    });

    const everyone: Who[] = [
      'creator',
      'otherMember',
      'admin',
      'otherAdmin',
      'otherOrgMember',
      'otherOrgAdmin',
    ];
    // The user template is made by `creator`; the organization template by `admin`. Statuses
    // in the order of `everyone`; replacing and deleting need the same rights.
    const change: Record<Target, number[]> = {
      user: [204, 404, 404, 404, 404, 404],
      organization: [403, 403, 204, 204, 404, 404],
      provider: [403, 403, 403, 403, 403, 403],
    };
    const statuses: Record<'get' | 'put' | 'delete', Record<Target, number[]>> = {
      get: {
        user: [200, 404, 404, 404, 404, 404],
        organization: [200, 200, 200, 200, 404, 404],
        provider: [200, 200, 200, 200, 200, 200],
      },
      put: change,
      delete: change,
    };
    const targets: Target[] = ['user', 'organization', 'provider'];

    /** Fresh templates for one case, so that a change or deletion never leaks into the next. */
    async function fresh(): Promise<Record<Target, string>> {
      return {
        user: await created(t.create(people.creator, body('SK', 'brochure', { title: 'mine' }))),
        organization: await created(
          t.create(people.admin, body('SK', 'brochure', { title: 'ours', level: 'organization' })),
        ),
        provider: providerTemplateId('SK', 'brochure'),
      };
    }
    const owner = (target: Target): Member => (target === 'user' ? people.creator : people.admin);
    /** Keeps the creator well below the template limit across the many cases. */
    async function cleanUp(ids: Record<Target, string>): Promise<void> {
      await t.del(people.creator, ids.user);
      await t.del(people.admin, ids.organization);
    }

    const cases = (['get', 'put', 'delete'] as const).flatMap((op) =>
      targets.flatMap((target) => everyone.map((who) => [op, target, who] as const)),
    );

    it.each(cases)('%s of a %s template by %s', async (op, target, who) => {
      const ids = await fresh();
      const id = ids[target];
      const status = statuses[op][target][everyone.indexOf(who)];
      const replacement = body('SK', 'appraisal', { title: 'changed', level: target });
      const send = (to: string) =>
        op === 'get'
          ? t.get(people[who], to)
          : op === 'put'
            ? t.put(people[who], to, replacement)
            : t.del(people[who], to);
      const before = await t.get(owner(target), id);
      const res = await send(id);
      expect(res.statusCode, res.body).toBe(status);

      if (status === 404) {
        // Exactly what a template that never existed gets.
        const missing = await send(randomUUID());
        expect(withoutRequestId(expectProblem(res, 404, 'not_found'))).toEqual(
          withoutRequestId(expectProblem(missing, 404, 'not_found')),
        );
      }
      if (status === 403) expectProblem(res, 403, 'forbidden');
      const after = await t.get(owner(target), id);
      if (op === 'put' && status === 204) {
        expect(after.json<TemplateContent[]>()[0]?.title).toBe('changed');
      } else if (op === 'delete' && status === 204) {
        expectProblem(after, 404, 'not_found');
        expectProblem(await send(id), 404, 'not_found');
      } else {
        expect(after.json()).toEqual(before.json());
      }
      if (status === 200) {
        expect(res.json()).toEqual(before.json());
      }
      await cleanUp(ids);
    });

    it.each(everyone)('lists for %s exactly the templates it may see', async (who) => {
      const ids = await fresh();
      const listed = (await t.list(people[who], 'SK')).json<Listed[]>().map((x) => x.uuid);
      expect(listed.includes(ids.provider), 'provider').toBe(true);
      expect(listed.includes(ids.user), 'user').toBe(who === 'creator');
      expect(listed.includes(ids.organization), 'organization').toBe(!who.startsWith('otherOrg'));
      await cleanUp(ids);
    });

    const mayCreate: Record<Target, Record<Who, number>> = {
      user: {
        creator: 201,
        otherMember: 201,
        admin: 201,
        otherAdmin: 201,
        otherOrgMember: 201,
        otherOrgAdmin: 201,
      },
      organization: {
        creator: 403,
        otherMember: 403,
        admin: 201,
        otherAdmin: 201,
        otherOrgMember: 403,
        otherOrgAdmin: 201,
      },
      provider: {
        creator: 403,
        otherMember: 403,
        admin: 403,
        otherAdmin: 403,
        otherOrgMember: 403,
        otherOrgAdmin: 403,
      },
    };
    const creations = targets.flatMap((level) => everyone.map((who) => [level, who] as const));

    it.each(creations)('create of a %s template by %s', async (level, who) => {
      const title = `created ${level} by ${who}`;
      const res = await t.create(people[who], body('SK', 'brochure', { title, level }));
      expect(res.statusCode, res.body).toBe(mayCreate[level][who]);
      const visible = (await t.list(people[who], 'SK')).json<Listed[]>();
      if (res.statusCode === 201) {
        const { id } = res.json<{ id: string }>();
        expect(visible.find((x) => x.uuid === id)).toMatchObject({ title, level });
      } else {
        expectProblem(res, 403, 'forbidden');
        expect(visible.some((x) => x.title === title)).toBe(false);
      }
    });
  });

  describe('limits', () => {
    let admin: Member;
    let member: Member;
    beforeAll(async () => {
      const org = await createOrganization(world.stores.accounts.db, 'Org Quota');
      admin = await addMember(world, org.id, 'quota-admin', true);
      member = await addMember(world, org.id, 'quota-member', false);
    });

    /** Puts `count` templates straight into the store, as if created earlier. */
    async function fill(owner: Member, level: 'user' | 'organization', count: number) {
      const at = new Date().toISOString();
      const rows = Array.from({ length: count }, () => ({
        id: randomUUID(),
        level,
        organization_id: owner.organizationId,
        user_id: level === 'user' ? owner.userId : null,
        title: 'filler',
        country_code: 'SK',
        rent_type: 'rent_gross' as const,
        front_cover: 1,
        back_cover: 1,
        sections: JSON.stringify(defaultSections('SK', 'brochure')),
        created_at: at,
        updated_at: at,
      }));
      await world.stores.accounts.db.insertInto('templates').values(rows).execute();
    }

    it(`keeps a user to ${limits.templates.perUser} user templates, even under concurrent requests`, async () => {
      await fill(member, 'user', limits.templates.perUser - 4);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.create(member, body('SK', 'brochure', { title: `race ${i}` })),
        ),
      );
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 201, 201, 201, 409, 409, 409, 409, 409, 409]);
      const refused = results.find((r) => r.statusCode === 409);
      if (refused)
        expect(expectProblem(refused, 409, 'conflict').detail).toMatch(
          /at most 100 user templates/,
        );
      const own = (await t.list(member, 'SK')).json<Listed[]>().filter((x) => x.level === 'user');
      expect(own).toHaveLength(limits.templates.perUser);

      // The limit is per user, and deleting one makes room again.
      await created(t.create(admin, body('SK', 'brochure')));
      expect(own[0] && (await t.del(member, own[0].uuid)).statusCode).toBe(204);
      await created(t.create(member, body('SK', 'brochure')));
      expectProblem(await t.create(member, body('SK', 'brochure')), 409, 'conflict');
    });

    it(`keeps an organization to ${limits.templates.perOrganization} organization templates`, async () => {
      await fill(admin, 'organization', limits.templates.perOrganization - 1);
      const organization = body('SK', 'brochure', { level: 'organization' });
      await created(t.create(admin, organization));
      const full = await t.create(admin, organization);
      expect(expectProblem(full, 409, 'conflict').detail).toMatch(
        /at most 200 organization templates/,
      );
      // User templates of the same organization are counted apart.
      await created(t.create(admin, body('SK', 'brochure')));
      // Another organization is not affected.
      await created(t.create(world.adminB, organization));
    });
  });
});
