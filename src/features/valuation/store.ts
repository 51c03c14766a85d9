import type { AccountDb } from '../../accounts/database.js';
import type { Viewer } from '../../http/caller.js';
import { lockDossier } from '../dossiers/store.js';

/** What a dossier's valuation rested on: the model's facts (hashed) and the market snapshot. */
export interface ValuationBasis {
  propertyHash: string;
  snapshot: string;
}

/** What the viewer's organization's last valuation of the dossier rested on, if it had one. */
export async function lastValuationBasis(
  db: AccountDb,
  viewer: Viewer,
  dossierId: string,
): Promise<ValuationBasis | undefined> {
  const row = await db
    .selectFrom('dossier_valuations')
    .select(['property_hash', 'snapshot'])
    .where('dossier_id', '=', dossierId)
    .where('organization_id', '=', viewer.organizationId)
    .executeTakeFirst();
  return row && { propertyHash: row.property_hash, snapshot: row.snapshot };
}

/**
 * Keeps `basis` as the dossier's last valuation, replacing the one before, scoped to the
 * viewer's organization: a dossier deleted meanwhile keeps nothing. The dossier's row is locked
 * first (dossiers/store.ts `lockDossier`): on PostgreSQL a delete not yet committed still shows
 * the row to a plain INSERT … SELECT, whose foreign key then failed once the delete committed
 * (a 500 for a valuation that raced its dossier's deletion). Locked, the write waits for the
 * delete and finds nothing to write.
 */
export async function recordValuationBasis(
  db: AccountDb,
  viewer: Viewer,
  dossierId: string,
  basis: ValuationBasis,
  at: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await lockDossier(trx, viewer, dossierId))) return;
    await trx
      .insertInto('dossier_valuations')
      .values({
        dossier_id: dossierId,
        organization_id: viewer.organizationId,
        property_hash: basis.propertyHash,
        snapshot: basis.snapshot,
        valued_at: at,
      })
      .onConflict((oc) =>
        oc.column('dossier_id').doUpdateSet((eb) => ({
          property_hash: eb.ref('excluded.property_hash'),
          snapshot: eb.ref('excluded.snapshot'),
          valued_at: eb.ref('excluded.valued_at'),
        })),
      )
      .execute();
  });
}
