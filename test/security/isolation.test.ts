import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXAMPLE_DOSSIER } from '../../src/features/dossiers/schemas.js';
import {
  exampleTemplate,
  providerTemplateId,
} from '../../src/features/templates/provider-templates.js';
import { describeBackends } from '../helpers/backends.js';
import { makePng } from '../helpers/images.js';
import { coverForm, multipart } from '../helpers/multipart.js';
import { makePdf } from '../helpers/pdf.js';
import { call, createWorld, type Member, type World } from '../helpers/world.js';
import { createDossier } from '../helpers/fixtures.js';

/*
 * Every object kind of one organization, tried from another organization with every method:
 * the answer is a 404 identical, byte for byte apart from the request id, to the answer for an
 * id that does not exist; and the object never appears in the other organization's lists.
 */

const MISSING = '0d9c3b2a-1f0e-4d5c-8b7a-6f5e4d3c2b1a';

interface Kind {
  name: string;
  /** Creates one object as `owner`; returns its id. */
  create(world: World, owner: Member): Promise<string>;
  /** Requests on one object, by id. */
  requests(
    id: string,
  ): { method: 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST'; url: string; payload?: object }[];
  /** Lists the other organization can read, which must not show the object. */
  lists: { method: 'GET' | 'POST'; url: string; payload?: object }[];
}

const created = (res: { statusCode: number; body: string }, field: string): string => {
  expect(res.statusCode, res.body).toBe(201);
  return (JSON.parse(res.body) as Record<string, string>)[field] ?? '';
};

/** The dossier each attachment made here belongs to. */
const attachmentDossiers = new Map<string, string>();

const KINDS: Kind[] = [
  {
    name: 'dossier',
    create: async (world, owner) => createDossier(world, owner),
    requests: (id) => [
      { method: 'GET', url: `/api/v1/dossiers/${id}` },
      { method: 'PUT', url: `/api/v1/dossiers/${id}`, payload: EXAMPLE_DOSSIER },
      { method: 'PATCH', url: `/api/v1/dossiers/${id}`, payload: { title: 'taken over' } },
      { method: 'GET', url: `/api/v1/dossiers/${id}/attachments` },
      {
        method: 'POST',
        url: `/api/v1/dossiers/${id}/report`,
        payload: { templateId: providerTemplateId('AT', 'appraisal') },
      },
      { method: 'DELETE', url: `/api/v1/dossiers/${id}` },
      {
        method: 'POST',
        url: '/api/v1/property_tracker',
        payload: { dossierId: id, date: '2025-01-15', countryCode: 'AT' },
      },
      {
        method: 'POST',
        url: '/api/v1/valuation/property_value',
        payload: { dealType: 'sale', countryCode: 'AT', valuationInputs: [{ dossierId: id }] },
      },
      {
        method: 'POST',
        url: '/api/v1/valuation/property_value_light',
        payload: { dealType: 'sale', countryCode: 'AT', dossierId: id },
      },
      { method: 'POST', url: `/api/v1/dossiers/${id}/valuation`, payload: {} },
      { method: 'POST', url: '/api/v1/dossiers/links', payload: { dossierId: id } },
      { method: 'POST', url: '/api/v1/indicators', payload: { dossierId: id, countryCode: 'AT' } },
    ],
    lists: [{ method: 'GET', url: '/api/v1/dossiers?limit=100' }],
  },
  {
    name: 'organization template',
    create: async (world, owner) =>
      created(
        await call(world.app, {
          method: 'POST',
          url: '/api/v1/user-settings/templates/',
          token: owner.token,
          payload: { ...exampleTemplate(), level: 'organization' },
        }),
        'id',
      ),
    requests: (id) => [
      { method: 'GET', url: `/api/v1/user-settings/templates/${id}` },
      {
        method: 'PUT',
        url: `/api/v1/user-settings/templates/${id}`,
        payload: { ...exampleTemplate(), level: 'organization' },
      },
      { method: 'DELETE', url: `/api/v1/user-settings/templates/${id}` },
    ],
    lists: [
      {
        method: 'POST',
        url: '/api/v1/user-settings/templates/list',
        payload: { countryCode: exampleTemplate().countryCode },
      },
    ],
  },
  {
    name: 'organization cover',
    create: async (world, owner) => {
      const form = coverForm(await makePdf(1));
      return created(
        await call(world.app, {
          method: 'POST',
          url: '/api/v1/user-settings/covers/organization/front',
          token: owner.token,
          payload: form.payload,
          headers: form.headers,
        }),
        'uuid',
      );
    },
    requests: (id) => [{ method: 'GET', url: `/api/v1/user-settings/covers/file/${id}` }],
    lists: [{ method: 'GET', url: '/api/v1/user-settings/covers/organization/front' }],
  },
  {
    name: 'dossier sharing link',
    create: async (world, owner) => {
      const dossierId = await createDossier(world, owner);
      return created(
        await call(world.app, {
          method: 'POST',
          url: '/api/v1/dossiers/links',
          token: owner.token,
          payload: { dossierId },
        }),
        'id',
      );
    },
    requests: (id) => [{ method: 'DELETE', url: `/api/v1/dossiers/links/${id}` }],
    lists: [{ method: 'GET', url: '/api/v1/dossiers/links' }],
  },
  {
    name: 'dossier attachment',
    create: async (world, owner) => {
      const dossier = await createDossier(world, owner);
      const form = multipart([
        { name: 'file', filename: 'plan.png', data: makePng() },
        { name: 'type', data: 'floorplan' },
      ]);
      const id = created(
        await call(world.app, {
          method: 'POST',
          url: `/api/v1/dossiers/${dossier}/attachments`,
          token: owner.token,
          ...form,
        }),
        'id',
      );
      attachmentDossiers.set(id, dossier);
      return id;
    },
    requests: (id) => [
      {
        method: 'GET',
        url: `/api/v1/dossiers/${attachmentDossiers.get(id) ?? ''}/attachments/${id}`,
      },
      {
        method: 'DELETE',
        url: `/api/v1/dossiers/${attachmentDossiers.get(id) ?? ''}/attachments/${id}`,
      },
    ],
    lists: [],
  },
];

/** The parts of an answer that must not depend on whether the object exists. */
function comparable(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  const headers = { ...res.headers };
  delete headers['x-request-id'];
  delete headers.date;
  const body = JSON.parse(res.body) as Record<string, unknown>;
  delete body.requestId;
  return {
    status: res.statusCode,
    headers,
    body: JSON.stringify(body).replaceAll(/[0-9a-f-]{36}/g, 'ID'),
  };
}

describeBackends('isolation between organizations', (backend) => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(() => world.close());

  it.each(KINDS.map((k) => [k.name, k] as const))(
    'another organization cannot tell a %s from a missing one, and never lists it',
    async (_name, kind) => {
      const id = await kind.create(world, world.adminA);
      for (const request of kind.requests(id)) {
        const foreign = await call(world.app, { ...request, token: world.adminB.token });
        const missing = await call(world.app, {
          ...request,
          url: request.url.replace(id, MISSING),
          ...(request.payload
            ? {
                payload: JSON.parse(JSON.stringify(request.payload).replace(id, MISSING)) as object,
              }
            : {}),
          token: world.adminB.token,
        });
        expect(foreign.statusCode, `${request.method} ${request.url}`).toBe(404);
        expect(comparable(foreign), `${request.method} ${request.url}`).toEqual(
          comparable(missing),
        );
      }
      for (const list of kind.lists) {
        const res = await call(world.app, { ...list, token: world.memberB.token });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.body).not.toContain(id);
      }
      // The owner still has it, unchanged by the attempts.
      const own = kind.requests(id)[0];
      if (own) {
        const res = await call(world.app, { ...own, token: world.adminA.token });
        // 204 where the first request is a revocation (links have no single read).
        expect([200, 204], res.body).toContain(res.statusCode);
      }
    },
  );

  it('a member where an organization admin is needed gets 403 and changes nothing', async () => {
    const templateId = await KINDS[1]?.create(world, world.adminA);
    const form = coverForm(await makePdf(1));
    const attempts = [
      {
        method: 'POST' as const,
        url: '/api/v1/user-settings/templates/',
        payload: { ...exampleTemplate(), level: 'organization' },
      },
      {
        method: 'PUT' as const,
        url: `/api/v1/user-settings/templates/${String(templateId)}`,
        payload: { ...exampleTemplate(), level: 'organization', title: 'changed' },
      },
      { method: 'DELETE' as const, url: `/api/v1/user-settings/templates/${String(templateId)}` },
      {
        method: 'POST' as const,
        url: '/api/v1/user-settings/covers/organization/back',
        payload: form.payload,
        headers: form.headers,
      },
      {
        method: 'PUT' as const,
        url: '/api/v1/user-settings/covers/organization/back',
        payload: { items: [] },
      },
    ];
    for (const attempt of attempts) {
      const res = await call(world.app, { ...attempt, token: world.memberA.token });
      expect(res.statusCode, `${attempt.method} ${attempt.url}: ${res.body}`).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    const kept = await call(world.app, {
      method: 'GET',
      url: `/api/v1/user-settings/templates/${String(templateId)}`,
      token: world.memberA.token,
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.body).not.toContain('changed');
  });

  it('no answer anywhere carries a password or token hash', async () => {
    const secrets = await world.stores.accounts.db
      .selectFrom('users')
      .select('password_hash as secret')
      .union(world.stores.accounts.db.selectFrom('tokens').select('token_hash as secret'))
      .execute();
    const answers = [
      await call(world.app, { method: 'GET', url: '/api/v1/me', token: world.adminA.token }),
      await call(world.app, { method: 'GET', url: '/api/v1/dossiers', token: world.adminA.token }),
      await call(world.app, {
        method: 'POST',
        url: '/auth/login/credentials',
        payload: { username: 'admin-a', password: 'wrong password' },
      }),
    ];
    for (const res of answers) {
      for (const { secret } of secrets) expect(res.body).not.toContain(secret);
      expect(res.body).not.toMatch(/password_?hash|token_?hash/i);
    }
  });
});
