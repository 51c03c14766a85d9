import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { call, createWorld, type World } from '../../../test/helpers/world.js';

describeBackends('health and readiness', (backend) => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(() => world.app.close());

  it('is live and ready while the stores answer, and not ready once one does not', async () => {
    expect((await call(world.app, { method: 'GET', url: '/health' })).json()).toEqual({
      status: 'ok',
    });
    const ready = await call(world.app, { method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', stores: { accounts: true, market: true } });

    await world.stores.close();
    const down = await call(world.app, { method: 'GET', url: '/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({
      status: 'unavailable',
      stores: { accounts: false, market: false },
    });
    expect((await call(world.app, { method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});
