import { randomUUID } from 'node:crypto';
import type { AccountDb } from '../../accounts/database.js';
import { lockOwnerRow } from '../../accounts/owner-lock.js';
import type { DossierRow } from '../../accounts/tables.js';
import { AppError } from '../../http/problem.js';
import type { Viewer } from '../../http/caller.js';
import { limits } from '../../limits.js';
import type { CountryCode } from '../../market/countries.js';
import type { Dossier } from './dossier.js';

// Storage of dossiers. Every query is scoped by the viewer's organization, here in SQL: no
// query can reach another organization's dossier, and one that is not visible looks missing.

export function toDossier(row: DossierRow): Dossier {
  return {
    id: row.id,
    organizationId: row.organization_id,
    creatorId: row.creator_id,
    countryCode: row.country_code as CountryCode,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    content: JSON.parse(row.body) as Dossier['content'],
  };
}

export async function findDossier(
  db: AccountDb,
  viewer: Viewer,
  id: string,
): Promise<Dossier | undefined> {
  return (await findStoredDossier(db, viewer, id))?.dossier;
}

/** A dossier and its body as stored: what a patch merged onto, for `replaceDossier`'s check. */
export async function findStoredDossier(
  db: AccountDb,
  viewer: Viewer,
  id: string,
): Promise<{ dossier: Dossier; body: string } | undefined> {
  const row = await db
    .selectFrom('dossiers')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', viewer.organizationId)
    .executeTakeFirst();
  return row && { dossier: toDossier(row), body: row.body };
}

/**
 * Locks the dossier's row until the transaction ends, so that concurrent writes that count or
 * refer to it (attachments under their cap, sharing links) run one after the other and never
 * outlive a concurrent delete; false when the dossier is gone (or not the viewer's
 * organization's).
 */
export async function lockDossier(
  trx: AccountDb,
  viewer: Viewer,
  dossierId: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('dossiers')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', dossierId)
    .where('organization_id', '=', viewer.organizationId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * One page, newest first (ties by id, so pages never overlap), and the organization's total: the
 * ids of the page, cut into batches of at most `batchChars` characters of stored body (at least
 * one dossier each), so that a page of large dossiers is read a batch at a time.
 */
export async function pageBatches(
  db: AccountDb,
  viewer: Viewer,
  page: { limit: number; offset: number },
  batchBytes: number,
): Promise<{ batches: string[][]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('dossiers')
      // Bytes (UTF-8), not characters: what a batch costs to parse and write grows with them,
      // and a character may be four.
      .select((eb) => ['id', eb.fn<number | string>('octet_length', ['body']).as('bytes')])
      .where('organization_id', '=', viewer.organizationId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('dossiers')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('organization_id', '=', viewer.organizationId)
      .executeTakeFirstOrThrow(),
  ]);
  const batches: string[][] = [];
  let bytes = Infinity;
  for (const row of rows) {
    const size = Number(row.bytes);
    const last = batches[batches.length - 1];
    if (!last || bytes + size > batchBytes) {
      batches.push([row.id]);
      bytes = size;
    } else {
      last.push(row.id);
      bytes += size;
    }
  }
  return { batches, total: Number(count.n) };
}

/** The dossiers of `ids` still there, in the order of `ids`. */
export async function dossiersById(
  db: AccountDb,
  viewer: Viewer,
  ids: readonly string[],
): Promise<Dossier[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('dossiers')
    .selectAll()
    .where('organization_id', '=', viewer.organizationId)
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toDossier(row)] : [];
  });
}

/**
 * Inserts a dossier unless the organization already has the most allowed (`409 conflict`);
 * the organization's row lock (lockOwnerRow) keeps concurrent creations from both passing.
 */
export async function insertDossier(
  db: AccountDb,
  viewer: Viewer,
  content: Dossier['content'],
  countryCode: CountryCode,
  now: Date,
): Promise<string> {
  const id = randomUUID();
  const max = limits.dossiers.perOrganization;
  await db.transaction().execute(async (trx) => {
    await lockOwnerRow(trx, { table: 'organizations', id: viewer.organizationId });
    const { n } = await trx
      .selectFrom('dossiers')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('organization_id', '=', viewer.organizationId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= max) {
      throw new AppError(
        'conflict',
        `An organization may keep at most ${max} dossiers; delete one first`,
      );
    }
    const at = now.toISOString();
    await trx
      .insertInto('dossiers')
      .values({
        id,
        organization_id: viewer.organizationId,
        creator_id: viewer.userId,
        country_code: countryCode,
        body: JSON.stringify(content),
        created_at: at,
        updated_at: at,
      })
      .execute();
  });
  return id;
}

/**
 * Replaces a dossier's content; false when it is gone (or not the viewer's organization's) or,
 * given `ifBody`, when its stored body is no longer that one (another write came first).
 */
export async function replaceDossier(
  db: AccountDb,
  viewer: Viewer,
  id: string,
  content: Dossier['content'],
  countryCode: CountryCode,
  now: Date,
  ifBody?: string,
): Promise<boolean> {
  let update = db
    .updateTable('dossiers')
    .set({
      body: JSON.stringify(content),
      country_code: countryCode,
      updated_at: now.toISOString(),
    })
    .where('id', '=', id)
    .where('organization_id', '=', viewer.organizationId);
  if (ifBody !== undefined) update = update.where('body', '=', ifBody);
  const result = await update.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteDossier(db: AccountDb, viewer: Viewer, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('dossiers')
    .where('id', '=', id)
    .where('organization_id', '=', viewer.organizationId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
