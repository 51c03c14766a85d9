import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createWorld, type World } from '../../test/helpers/world.js';

// The world's tokens live an hour; this app's clock is two hours ahead.
let world: World;
beforeAll(async () => {
  world = await createWorld('sqlite', {
    app: { now: () => new Date(Date.now() + 2 * 3_600_000) },
  });
});
afterAll(() => world.close());

it('checks token expiry against the app clock, not the machine clock', async () => {
  const res = await call(world.app, {
    method: 'GET',
    url: '/api/v1/dossiers',
    token: world.memberA.token,
  });
  expect(res.statusCode).toBe(401);
});
