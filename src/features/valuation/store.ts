import type { AccountDb } from '../../accounts/database.js';
import type { Viewer } from '../../http/caller.js';

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
 * Keeps `basis` as the dossier's last valuation, replacing the one before. Written from the
 * dossier's own row, scoped to the viewer's organization: a dossier deleted meanwhile keeps
 * nothing.
 */
export async function recordValuationBasis(
  db: AccountDb,
  viewer: Viewer,
  dossierId: string,
  basis: ValuationBasis,
  at: string,
): Promise<void> {
  await db
    .insertInto('dossier_valuations')
    .columns(['dossier_id', 'organization_id', 'property_hash', 'snapshot', 'valued_at'])
    .expression(
      db
        .selectFrom('dossiers')
        .select((eb) => [
          'id',
          'organization_id',
          eb.val(basis.propertyHash).as('property_hash'),
          eb.val(basis.snapshot).as('snapshot'),
          eb.val(at).as('valued_at'),
        ])
        .where('id', '=', dossierId)
        .where('organization_id', '=', viewer.organizationId),
    )
    .onConflict((oc) =>
      oc.column('dossier_id').doUpdateSet((eb) => ({
        property_hash: eb.ref('excluded.property_hash'),
        snapshot: eb.ref('excluded.snapshot'),
        valued_at: eb.ref('excluded.valued_at'),
      })),
    )
    .execute();
}
