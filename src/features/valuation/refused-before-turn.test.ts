import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { holdTurn } from '../../../test/helpers/turns.js';
import { fixedValuer } from '../../../test/helpers/valuer.js';
import { call, createWorld, type World } from '../../../test/helpers/world.js';
import { CostlyWork } from '../../work/costly-work.js';
import { EXAMPLE_DOSSIER } from '../dossiers/schemas.js';

// A wrong property is said at once: it neither waits for its organization's turn for costly
// work nor takes one of its waiting places (with none free, it had been a 429, not a 400).
describeBackends('a valuation with a property outside its country', (backend) => {
  let world: World;
  const work = new CostlyWork({ slots: 1, perOrganization: 1, waitingPerOrganization: 0 });
  beforeAll(async () => {
    world = await createWorld(backend, {
      app: {
        now: () => new Date('2026-06-15T08:00:00Z'),
        valueProperty: fixedValuer(),
        costlyWork: work,
      },
    });
  });
  afterAll(() => world.close());

  it('is a 400 while its organization’s turn is taken and no place is free to wait in', async () => {
    const release = holdTurn(work.queue, world.memberA.organizationId);
    try {
      const atSea = {
        ...EXAMPLE_DOSSIER.property,
        location: { coordinates: { latitude: 45, longitude: -30 } },
      };
      // Ten pairs: costly work, which takes a turn.
      const inputs = Array.from({ length: 10 }, (_, i) =>
        i === 7 ? { property: atSea } : { property: EXAMPLE_DOSSIER.property },
      );
      const res = await call(world.app, {
        method: 'POST',
        url: '/api/v1/valuation/property_value',
        token: world.memberA.token,
        payload: { dealType: 'sale', countryCode: 'AT', valuationInputs: inputs },
      });
      const problem = expectProblem(res, 400, 'validation_failed');
      expect(JSON.stringify(problem.errors)).toContain('/valuationInputs/7/property');
      // A valid one of the same size does wait: it is refused for want of a place.
      const valid = await call(world.app, {
        method: 'POST',
        url: '/api/v1/valuation/property_value',
        token: world.memberA.token,
        payload: {
          dealType: 'sale',
          countryCode: 'AT',
          valuationInputs: inputs.map(() => ({ property: EXAMPLE_DOSSIER.property })),
        },
      });
      expectProblem(valid, 429, 'rate_limited');
    } finally {
      await release();
    }
  });
});
