import { EXAMPLE_DOSSIER } from '../../src/features/dossiers/schemas.js';
import type { FairQueue } from '../../src/work/fair-queue.js';
import { call, type World } from './world.js';

/**
 * Takes one of `organizationId`'s turns in `queue`, as a costly request still running would,
 * until the returned function is called; that resolves once the turn is given back.
 */
export function holdTurn(queue: FairQueue, organizationId: string): () => Promise<void> {
  let release!: () => void;
  const held = queue.run(organizationId, () => new Promise<void>((resolve) => (release = resolve)));
  return () => {
    release();
    return held;
  };
}

/** One example dossier for each organization of the world (A's and B's), by organization id. */
export async function dossierPerOrganization(world: World): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const who of [world.memberA, world.memberB]) {
    const res = await call(world.app, {
      method: 'POST',
      url: '/api/v1/dossiers',
      token: who.token,
      payload: EXAMPLE_DOSSIER,
    });
    ids[who.organizationId] = res.json<{ id: string }>().id;
  }
  return ids;
}
