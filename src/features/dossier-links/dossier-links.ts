import { lockOwnerRow } from '../../accounts/owner-lock.js';
import { randomBytes } from 'node:crypto';
import type { ServiceDeps } from '../../app-context.js';
import { hashToken } from '../../accounts/secrets.js';
import type { DossierLinkRow } from '../../accounts/tables.js';
import type { Caller } from '../../http/caller.js';
import { invalidField } from '../../http/field-errors.js';
import { AppError, notFound } from '../../http/problem.js';
import type { WithDefaults } from '../../http/schemas.js';
import { limits } from '../../limits.js';
import { visibleDossier } from '../dossiers/dossiers.js';
import { lockDossier } from '../dossiers/store.js';
import type { CreatedLink, CreateLinkRequest, DossierLink } from './schemas.js';
import { PAGE_PATH } from './page-path.js';
import {
  countOpenLinks,
  insertLink,
  listLinks,
  makeRoomForLink,
  pruneClosedLinks,
  revokeLink,
} from './store.js';

export type LinkDeps = Pick<ServiceDeps, 'db' | 'now' | 'organizationTurns'> & {
  publicBaseUrl: string;
};

export { PAGE_PATH };

const DAY_MS = 86_400_000;

/**
 * A new sharing link of a visible dossier: a secret of `limits.dossierLinks.tokenBytes` random
 * bytes, of which only the SHA-256 is kept. The URL holding it is given this once.
 */
export async function createLink(
  deps: LinkDeps,
  caller: Caller,
  request: WithDefaults<CreateLinkRequest, 'daysToLive' | 'locale'>,
): Promise<CreatedLink> {
  const dossier = await visibleDossier(deps.db, caller, request.dossierId);
  if (request.countryCode !== undefined && request.countryCode !== dossier.countryCode) {
    throw invalidField('/countryCode', `must be the dossier's country (${dossier.countryCode})`);
  }
  const secret = randomBytes(limits.dossierLinks.tokenBytes).toString('base64url');
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + request.daysToLive * DAY_MS).toISOString();
  // The dossier's row lock makes the count and the insert one step: concurrent creations cannot
  // both pass the cap, and a concurrent delete either comes first (404) or waits.
  const id = await deps.organizationTurns.run(caller.organizationId, () =>
    deps.db.transaction().execute(async (trx) => {
      if (!(await lockDossier(trx, caller, dossier.id))) throw notFound('Dossier');
      const at = now.toISOString();
      const { perDossier, openPerOrganization, closedPerDossier, perOrganization } =
        limits.dossierLinks;
      if ((await countOpenLinks(trx, { dossierId: dossier.id }, at)) >= perDossier) {
        throw new AppError(
          'conflict',
          `A dossier may have at most ${String(perDossier)} open links; revoke one first`,
        );
      }
      // The organization's row too, for its count: creations on different dossiers wait in turn.
      const organization = { organizationId: caller.organizationId };
      await lockOwnerRow(trx, { table: 'organizations', id: caller.organizationId });
      if ((await countOpenLinks(trx, organization, at)) >= openPerOrganization) {
        throw new AppError(
          'conflict',
          `An organization may have at most ${String(openPerOrganization)} open links; ` +
            'revoke some first',
        );
      }
      await pruneClosedLinks(trx, dossier.id, at, closedPerDossier);
      await makeRoomForLink(trx, caller.organizationId, at, perOrganization);
      return insertLink(trx, caller, {
        dossierId: dossier.id,
        tokenHash: hashToken(secret),
        locale: request.locale,
        createdAt: now.toISOString(),
        expiresAt,
      });
    }),
  );
  return { id, url: `${deps.publicBaseUrl}${PAGE_PATH}/${secret}`, expiresAt };
}

function toLink(row: DossierLinkRow, now: string): DossierLink {
  return {
    id: row.id,
    dossierId: row.dossier_id,
    locale: row.locale,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    isActive: row.revoked_at === null && row.expires_at > now,
  };
}

/** A page of the organization's links (of one dossier if given), newest first. */
export async function linksOf(
  deps: LinkDeps,
  caller: Caller,
  query: { dossierId?: string; limit: number; offset: number },
): Promise<{ items: DossierLink[]; totalItems: number; limit: number; offset: number }> {
  const now = deps.now().toISOString();
  const page = { limit: query.limit, offset: query.offset };
  const { items, total } = await listLinks(deps.db, caller, query.dossierId, page);
  return { items: items.map((r) => toLink(r, now)), totalItems: total, ...page };
}

export async function revoke(deps: LinkDeps, caller: Caller, id: string): Promise<void> {
  if (!(await revokeLink(deps.db, caller, id, deps.now().toISOString()))) {
    throw notFound('Link');
  }
}
