import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends, tempDir } from '../../../test/helpers/backends.js';
import { csv, OFFER_KEY_COLUMNS, writeFile } from '../../../test/helpers/market.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { fixedValuer } from '../../../test/helpers/valuer.js';
import { call, createWorld, type World } from '../../../test/helpers/world.js';
import { importFile } from '../../market/import/run-import.js';
import { createDossier } from '../../../test/helpers/fixtures.js';
import { InsufficientDataError } from '../../valuation/errors.js';
import type { ValueProperty } from '../../valuation/types.js';
import { monthlyDates } from './dossier-valuation.js';
import type { DossierValuationResponse } from './schemas.js';

describe('monthlyDates', () => {
  it('is the first of each month up to today’s, oldest first', () => {
    expect(monthlyDates('2026-03-15', 4)).toEqual([
      '2025-12-01',
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
    ]);
  });
});

describe('POST /api/v1/dossiers/{id}/valuation', () => {
  let world: World;
  let dossierId: string;
  const fixed = fixedValuer({ '2026-05-01': 4000 }, 5000);
  // Rents cannot be valued in 2025, nor today; sales always.
  const valuer: ValueProperty = (db, request) => {
    if (
      request.dealType === 'rent' &&
      (request.date < '2026-01-01' || request.date === '2026-06-15')
    ) {
      return Promise.reject(new InsufficientDataError('too few rents'));
    }
    return fixed(db, request);
  };
  beforeAll(async () => {
    world = await createWorld('sqlite', {
      app: { now: () => new Date('2026-06-15T08:00:00Z'), valueProperty: valuer },
    });
    dossierId = await createDossier(world);
  });
  afterAll(() => world.close());

  it('gives today’s values and monthly timelines, leaving out what the data cannot support', async () => {
    const res = await call(world.app, {
      method: 'POST',
      url: `/api/v1/dossiers/${dossierId}/valuation`,
      token: world.memberA.token,
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<DossierValuationResponse>();
    expect(body.valuationSale).toMatchObject({
      value: 360000,
      valuationDate: '2026-06-15',
      confidence: 'medium',
      valuationConfidence: 'medium',
      currency: 'EUR',
    });
    expect(body.valuationSaleTimeline.map((v) => v.valuationDate)).toEqual(
      monthlyDates('2026-06-15', 24),
    );
    expect(body.valuationSaleTimeline.find((v) => v.valuationDate === '2026-05-01')?.value).toBe(
      288000,
    );
    expect(body.valuationRentGross).toBeNull();
    expect(body.valuationRentNet).toBeNull();
    expect(body.valuationRentGrossTimeline.map((v) => v.valuationDate)).toEqual([
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
      '2026-04-01',
      '2026-05-01',
      '2026-06-01',
    ]);
    // No rent offer states both rents here: the default ratio.
    const [gross, net] = [body.valuationRentGrossTimeline[0], body.valuationRentNetTimeline[0]];
    expect(net?.value).toBe(Math.round((gross?.value ?? 0) * 0.8));
    expect(body.isValuationStale).toBe(false);
  });

  it('refuses a body with anything in it, and another organization’s dossier is a 404', async () => {
    const url = `/api/v1/dossiers/${dossierId}/valuation`;
    const extra = expectProblem(
      await call(world.app, { method: 'POST', url, token: world.memberA.token, payload: { x: 1 } }),
      400,
      'validation_failed',
    );
    expect(extra.errors).toEqual([{ path: '/x', message: 'is not allowed' }]);
    // An empty array is the empty body PHP sends (`json_encode([])`); one with anything is not.
    const emptyArray = await call(world.app, {
      method: 'POST',
      url,
      token: world.memberA.token,
      payload: [],
    });
    expect(emptyArray.statusCode, emptyArray.body).toBe(200);
    expect(emptyArray.json<DossierValuationResponse>().valuationSale?.value).toBe(360000);
    const array = expectProblem(
      await call(world.app, { method: 'POST', url, token: world.memberA.token, payload: [1] }),
      400,
      'validation_failed',
    );
    expect(array.detail).toBe('body must be object');
    expectProblem(
      await call(world.app, { method: 'POST', url, token: world.adminB.token, payload: {} }),
      404,
      'not_found',
    );
  });
});

describeBackends('isValuationStale of the dossier valuation', (backend) => {
  let world: World;
  let dossierId: string;
  beforeAll(async () => {
    world = await createWorld(backend, {
      app: { now: () => new Date('2026-06-15T08:00:00Z'), valueProperty: fixedValuer({}, 5000) },
    });
    dossierId = await createDossier(world);
  });
  afterAll(() => world.close());

  const value = async (who = world.memberA) => {
    const res = await call(world.app, {
      method: 'POST',
      url: `/api/v1/dossiers/${dossierId}/valuation`,
      token: who.token,
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DossierValuationResponse>();
  };
  const patch = async (payload: object) => {
    const res = await call(world.app, {
      method: 'PATCH',
      url: `/api/v1/dossiers/${dossierId}`,
      token: world.memberA.token,
      payload,
    });
    expect(res.statusCode, res.body).toBe(204);
  };

  it('is false for a first valuation, and while neither the facts valued nor the market data change', async () => {
    expect((await value()).isValuationStale).toBe(false);
    // Another member of the organization sees the same dossier valuation.
    expect((await value(world.adminA)).isValuationStale).toBe(false);
    // A new title or description is not something the model values.
    await patch({ title: 'Renamed', description: 'Freshly painted' });
    expect((await value()).isValuationStale).toBe(false);
  });

  it('is true once when a fact the model values changed since the previous valuation', async () => {
    await patch({ property: { livingArea: 80 } });
    const changed = await value();
    expect(changed.isValuationStale).toBe(true);
    // The answer itself is of the dossier as it is now: 80 m² at 5,000 per m².
    expect(changed.valuationSale?.value).toBe(400_000);
    expect((await value()).isValuationStale).toBe(false);
  });

  it('is not made true by how the postcode is written, only by another postcode', async () => {
    const postCode = (code: string) =>
      patch({ property: { location: { address: { postCode: code } } } });
    // The dossier states 1010. Postcodes are compared without spaces: the same code.
    await value();
    await postCode(' 10 10 ');
    expect((await value()).isValuationStale).toBe(false);
    await postCode('1020');
    expect((await value()).isValuationStale).toBe(true);
    await postCode('1010');
    expect((await value()).isValuationStale).toBe(true);
  });

  it('is true once when the market data was replaced by a newer snapshot', async () => {
    const before = world.stores.market.snapshotFile;
    await importFile(
      world.config.dataDir,
      'offers',
      path.resolve(
        writeFile(
          tempDir(),
          'offers.csv',
          csv(
            [...OFFER_KEY_COLUMNS, 'salePrice', 'livingArea', 'postalCode'],
            [['stale-1', 'AT', 'sale', 'apartment', '2026-06-01', 300_000, 60, '1010']],
          ),
        ),
      ),
      { strict: true, today: '2026-06-15' },
    );
    expect(await world.stores.market.refresh()).toBe(true);
    expect(world.stores.market.snapshotFile).not.toBe(before);
    expect((await value()).isValuationStale).toBe(true);
    expect((await value()).isValuationStale).toBe(false);
  });

  it('keeps one basis per dossier, in its organization, and drops it with the dossier', async () => {
    const rows = () =>
      world.stores.accounts.db
        .selectFrom('dossier_valuations')
        .select(['dossier_id', 'organization_id', 'snapshot'])
        .execute();
    expect(await rows()).toEqual([
      {
        dossier_id: dossierId,
        organization_id: world.memberA.organizationId,
        snapshot: path.basename(world.stores.market.snapshotFile),
      },
    ]);
    const res = await call(world.app, {
      method: 'DELETE',
      url: `/api/v1/dossiers/${dossierId}`,
      token: world.memberA.token,
    });
    expect(res.statusCode).toBe(204);
    expect(await rows()).toEqual([]);
  });
});
