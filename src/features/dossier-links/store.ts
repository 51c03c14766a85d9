import { randomUUID } from 'node:crypto';
import type { AccountDb } from '../../accounts/database.js';
import type { DossierLinkRow, DossierRow } from '../../accounts/tables.js';
import type { Viewer } from '../../http/caller.js';

// Storage of sharing links. Every query an organization makes is scoped by its id in SQL; the
// one query without a viewer finds a link by the hash of its secret, for the public page.

/** Whose links a count or pruning is over: one dossier's, or a whole organization's. */
export type LinkScope = { dossierId: string } | { organizationId: string };

function scoped(db: AccountDb, scope: LinkScope) {
  const links = db.selectFrom('dossier_links');
  return 'dossierId' in scope
    ? links.where('dossier_id', '=', scope.dossierId)
    : links.where('organization_id', '=', scope.organizationId);
}

/** Links still open at `now` (neither revoked nor expired) of a dossier or an organization. */
export async function countOpenLinks(
  db: AccountDb,
  scope: LinkScope,
  now: string,
): Promise<number> {
  const { n } = await scoped(db, scope)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertLink(
  db: AccountDb,
  viewer: Viewer,
  link: {
    dossierId: string;
    tokenHash: string;
    locale: string;
    createdAt: string;
    expiresAt: string;
  },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('dossier_links')
    .values({
      id,
      organization_id: viewer.organizationId,
      dossier_id: link.dossierId,
      creator_id: viewer.userId,
      token_hash: link.tokenHash,
      locale: link.locale,
      created_at: link.createdAt,
      expires_at: link.expiresAt,
      revoked_at: null,
    })
    .execute();
  return id;
}

/** Links closed at `now`: revoked, or expired. */
function closedAt<T extends ReturnType<typeof scoped>>(links: T, now: string): T {
  return links.where((eb) =>
    eb.or([eb('revoked_at', 'is not', null), eb('expires_at', '<=', now)]),
  ) as T;
}

/**
 * Deletes the dossier's closed links beyond the newest `keep` of them: the history a dossier's
 * list shows stays bounded however many links were made.
 */
export async function pruneClosedLinks(
  db: AccountDb,
  dossierId: string,
  now: string,
  keep: number,
): Promise<number> {
  const kept = closedAt(scoped(db, { dossierId }), now)
    .select('id')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(keep);
  const beyond = closedAt(scoped(db, { dossierId }), now).where('id', 'not in', kept).select('id');
  const result = await db.deleteFrom('dossier_links').where('id', 'in', beyond).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Makes room for one more of the organization's links where it holds `most` or more: its
 * oldest closed links go. The count comes from the index of the organization's links alone, so
 * a creation with room reads none of them.
 */
export async function makeRoomForLink(
  db: AccountDb,
  organizationId: string,
  now: string,
  most: number,
): Promise<void> {
  const { n } = await scoped(db, { organizationId })
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  const beyond = Number(n) - most + 1;
  if (beyond <= 0) return;
  const oldest = closedAt(scoped(db, { organizationId }), now)
    .select('id')
    .orderBy('created_at')
    .orderBy('id')
    .limit(beyond);
  await db.deleteFrom('dossier_links').where('id', 'in', oldest).execute();
}

/** A page of the organization's links (of one dossier if given), newest first, and their count. */
export async function listLinks(
  db: AccountDb,
  viewer: Viewer,
  dossierId: string | undefined,
  page: { limit: number; offset: number },
): Promise<{ items: DossierLinkRow[]; total: number }> {
  let rows = db.selectFrom('dossier_links').where('organization_id', '=', viewer.organizationId);
  if (dossierId !== undefined) rows = rows.where('dossier_id', '=', dossierId);
  const [items, count] = await Promise.all([
    rows
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    rows.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

/** Revokes a link (again is harmless); false when it is not the viewer's organization's. */
export async function revokeLink(
  db: AccountDb,
  viewer: Viewer,
  id: string,
  at: string,
): Promise<boolean> {
  const link = await db
    .selectFrom('dossier_links')
    .select(['id', 'revoked_at'])
    .where('id', '=', id)
    .where('organization_id', '=', viewer.organizationId)
    .executeTakeFirst();
  if (!link) return false;
  if (link.revoked_at === null) {
    await db
      .updateTable('dossier_links')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('organization_id', '=', viewer.organizationId)
      .execute();
  }
  return true;
}

/** The link with this secret's hash and its dossier, if the link is neither revoked nor expired. */
export async function findOpenLink(
  db: AccountDb,
  tokenHash: string,
  now: string,
): Promise<{ link: DossierLinkRow; dossier: DossierRow } | undefined> {
  const link = await db
    .selectFrom('dossier_links')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!link) return undefined;
  const dossier = await db
    .selectFrom('dossiers')
    .selectAll()
    .where('id', '=', link.dossier_id)
    .where('organization_id', '=', link.organization_id)
    .executeTakeFirst();
  return dossier && { link, dossier };
}
