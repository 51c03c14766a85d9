import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { openAccountDatabase } from '../../src/accounts/database.js';
import { createOrganization } from '../../src/accounts/organizations.js';
import { issueToken } from '../../src/accounts/tokens.js';
import { createUser } from '../../src/accounts/users.js';
import { insertAttachment } from '../../src/features/attachments/store.js';
import { EXAMPLE_DOSSIER } from '../../src/features/dossiers/schemas.js';
import { call, PASSWORD, type Member, type World } from './world.js';

// What tests make in a running world beyond its four members: users, dossiers, created ids.

/**
 * Stores `pdf` as a permit of member A's dossier as it was stored before copy weights were kept
 * (`copy_weight` null, a minute ago), straight into the store, and gives its id.
 */
export async function storePdfWithoutWeight(
  world: World,
  dossierId: string,
  pdf: Buffer,
): Promise<string> {
  const id = randomUUID();
  await insertAttachment(
    world.stores.accounts.db,
    {
      id,
      dossier_id: dossierId,
      organization_id: world.memberA.organizationId,
      type: 'permit',
      title: 'old.pdf',
      content_type: 'application/pdf',
      size: pdf.length,
      print_size: 0,
      width: null,
      height: null,
      pages: 1,
      copy_weight: null,
      created_at: new Date(Date.now() - 60_000).toISOString(),
    },
    pdf,
    null,
  );
  return id;
}

/** Creates a dossier through the API as `who` (default: member A) and gives its id. */
export async function createDossier(
  world: World,
  who: Member = world.memberA,
  payload: object = EXAMPLE_DOSSIER,
): Promise<string> {
  const res = await call(world.app, {
    method: 'POST',
    url: '/api/v1/dossiers',
    token: who.token,
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`dossier not created: ${res.body}`);
  return res.json<{ id: string }>().id;
}

/** The id a creation answered with, failing the test unless the answer is 201 with a UUID. */
export async function createdId(res: Promise<LightMyRequestResponse>): Promise<string> {
  const r = await res;
  expect(r.statusCode, r.body).toBe(201);
  const { id } = r.json<{ id: string }>();
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id;
}

/** A new user of `organizationId`, made as the account commands make one, with an API token. */
export async function addMember(
  world: World,
  organizationId: string,
  username: string,
  isAdmin: boolean,
): Promise<Member> {
  const db = world.stores.accounts.db;
  const user = await createUser(db, { organizationId, username, password: PASSWORD, isAdmin });
  const token = await issueToken(db, { userId: user.id, kind: 'api', ttlSeconds: 3600 });
  return { userId: user.id, organizationId, username, token: token.secret };
}

/**
 * Opens the account database at `databaseUrl` (as a server started as a command uses it), adds
 * an organization `name` with one user of that name, and gives the user's API token.
 */
export async function tokenOfNewAccount(
  databaseUrl: string,
  name: string,
  isAdmin: boolean,
): Promise<string> {
  const accounts = await openAccountDatabase(databaseUrl);
  try {
    const org = await createOrganization(accounts.db, name);
    const user = await createUser(accounts.db, {
      organizationId: org.id,
      username: name.toLowerCase(),
      password: 'long enough password',
      isAdmin,
    });
    return (await issueToken(accounts.db, { userId: user.id, kind: 'api', ttlSeconds: 600 }))
      .secret;
  } finally {
    await accounts.close();
  }
}
