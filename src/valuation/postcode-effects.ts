import type { DuckDBConnection } from '@duckdb/node-api';
import type { HedonicFit } from './hedonic.js';
import { postcodeResiduals, regionOf, type PostcodeResidual } from './model-sums.js';
import { cachedRegional, type Postcode, type SnapshotCache } from './snapshot-cache.js';
import type { DealType } from './types.js';

/**
 * Postcode level effects: how far a postcode's offers lie above or below the regional hedonic
 * model (month effect + β·features), as a mean residual shrunk towards 0. A comparable from a
 * neighbouring postcode is moved by the difference between the property's postcode and its own,
 * so a radius that crosses into a dearer or cheaper postcode does not bias the value.
 */

/**
 * Shrinkage, in offers: a postcode's effect is its residual sum over (offers + this), so a postcode
 * with few offers keeps an effect near 0 (the region's level).
 */
export const POSTCODE_SHRINK = 5;

/** Shrunken mean residual per postcode. */
export function shrunkEffects(
  residuals: readonly PostcodeResidual[],
  shrink = POSTCODE_SHRINK,
): Map<string, number> {
  return new Map(residuals.map((r) => [r.postcode, r.residual / (r.n + shrink)]));
}

/**
 * The postcode effects of the property's region for a fit of the months before `beforeMonth`
 * (so an offer published after the valuation date never moves them), cached per snapshot: the
 * fit is the same for every valuation of the region and month.
 */
export function postcodeEffects(
  db: DuckDBConnection,
  cache: SnapshotCache,
  countryCode: string,
  postcode: Postcode,
  deal: DealType,
  fit: HedonicFit,
  beforeMonth: number,
): Promise<Map<string, number>> {
  const region = regionOf(postcode);
  const key = `postcodes|${countryCode}|${region.kind}|${region.id}|${deal}|${String(beforeMonth)}`;
  return cachedRegional(cache, key, async () =>
    shrunkEffects(
      await postcodeResiduals(
        db,
        { countryCode, postcode, deal },
        cache.hasModelSums,
        fit,
        beforeMonth,
      ),
    ),
  );
}
