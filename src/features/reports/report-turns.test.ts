import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { dossierPerOrganization, holdTurn } from '../../../test/helpers/turns.js';
import { fixedValuer } from '../../../test/helpers/valuer.js';
import { call, createWorld, type Member, type World } from '../../../test/helpers/world.js';
import { CostlyWork } from '../../work/costly-work.js';
import { defaultSections } from '../templates/provider-templates.js';

describeBackends('reports take their organization’s turn for costly work', (backend) => {
  let world: World;
  // Two costly requests at once, one per organization, three of an organization waiting.
  const work = new CostlyWork({ slots: 2, perOrganization: 1, waitingPerOrganization: 3 });
  const made: Record<string, { dossier: string; template: string }> = {};
  beforeAll(async () => {
    world = await createWorld(backend, {
      app: {
        now: () => new Date('2026-06-15T12:00:00Z'),
        valueProperty: fixedValuer(),
        costlyWork: work,
      },
    });
    const dossiers = await dossierPerOrganization(world);
    for (const who of [world.memberA, world.memberB]) {
      const template = await call(world.app, {
        method: 'POST',
        url: '/api/v1/user-settings/templates/',
        token: who.token,
        payload: {
          title: 'Short',
          level: 'user',
          countryCode: 'AT',
          sections: defaultSections('AT', 'appraisal').map((s) => ({
            ...s,
            enabled: s.type === 'overview' || s.type === 'valuation',
          })),
        },
      });
      expect(template.statusCode, template.body).toBe(201);
      made[who.organizationId] = {
        dossier: dossiers[who.organizationId] ?? '',
        template: template.json<{ id: string }>().id,
      };
    }
  });
  afterAll(() => world.close());

  const report = (who: Member) => {
    const { dossier, template } = made[who.organizationId] ?? { dossier: '', template: '' };
    return call(world.app, {
      method: 'POST',
      url: `/api/v1/dossiers/${dossier}/report`,
      token: who.token,
      payload: { templateId: template },
    });
  };

  it('an organization’s burst of reports waits for its own turn, not another organization’s reports or light requests', async () => {
    // Organization A's one turn is taken (by a costly request still running).
    const release = holdTurn(work.queue, world.memberA.organizationId);
    const burst = [1, 2, 3].map(() => report(world.memberA));
    try {
      await vi.waitFor(
        () => {
          expect(work.queue.size).toEqual({ running: 1, waiting: 3 });
        },
        { timeout: 60_000, interval: 20 },
      );
      // A fourth finds the organization's waiting room full: refused at once, nothing loaded.
      const refused = await report(world.memberA);
      expectProblem(refused, 429, 'rate_limited');
      expect(refused.headers['retry-after']).toBe('2');

      // Organization B is not behind A's burst: its light requests and its own report are
      // answered while all three of A's reports are still waiting.
      const list = await call(world.app, {
        method: 'GET',
        url: '/api/v1/dossiers',
        token: world.memberB.token,
      });
      expect(list.statusCode).toBe(200);
      const light = await call(world.app, {
        method: 'POST',
        url: '/api/v1/valuation/property_value',
        token: world.memberB.token,
        payload: {
          dealType: 'sale',
          countryCode: 'AT',
          valuationInputs: [{ dossierId: made[world.memberB.organizationId]?.dossier }],
        },
      });
      expect(light.statusCode, light.body).toBe(200);
      const other = await report(world.memberB);
      expect(other.statusCode, other.body).toBe(200);
      expect(other.headers['content-type']).toBe('application/pdf');
      expect(other.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect(work.queue.size).toEqual({ running: 1, waiting: 3 });
    } finally {
      await release();
    }
    // Then A's reports run, one at a time, and all are made.
    for (const res of await Promise.all(burst)) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
    }
    expect(work.queue.size).toEqual({ running: 0, waiting: 0 });
  });
});
