import type { DuckDBConnection } from '@duckdb/node-api';
import { FEATURES } from './features.js';
import type { HedonicFit } from './hedonic.js';
import { postcodeMonthRows, regionOf } from './model-sums.js';
import { cachedRegional, type Postcode, type SnapshotCache } from './snapshot-cache.js';
import type { DealType } from './types.js';

/**
 * Postcode level effects: how far a postcode's offers lie above or below the regional hedonic
 * model (month effect + β·features), as a mean residual shrunk towards 0. A comparable from a
 * neighbouring postcode is moved by the difference between the property's postcode and its own,
 * so a radius that crosses into a dearer or cheaper postcode does not bias the value.
 */

/** Sums of one postcode's offers in one month (y = log price per m², x = features). */
export interface PostcodeMonth {
  postcode: string;
  month: number;
  n: number;
  sumY: number;
  sumX: number[];
}

/**
 * Shrinkage, in offers: a postcode's effect is its residual sum over (offers + this), so a postcode
 * with few offers keeps an effect near 0 (the region's level).
 */
export const POSTCODE_SHRINK = 5;

/**
 * Shrunken mean residual per postcode from the months before `beforeMonth` that the fit has a
 * month effect for.
 */
export function postcodeEffects(
  rows: readonly PostcodeMonth[],
  fit: HedonicFit,
  beforeMonth: number,
  shrink = POSTCODE_SHRINK,
): Map<string, number> {
  const effects = new Map(fit.months.map((m) => [m.month, m.effect]));
  const sums = new Map<string, { residual: number; n: number }>();
  for (const r of rows) {
    const effect = effects.get(r.month);
    if (r.month >= beforeMonth || effect === undefined) continue;
    const explained = fit.beta.reduce((s, b, i) => s + b * (r.sumX[i] ?? 0), 0);
    const sum = sums.get(r.postcode) ?? { residual: 0, n: 0 };
    sum.residual += r.sumY - r.n * effect - explained;
    sum.n += r.n;
    sums.set(r.postcode, sum);
  }
  return new Map([...sums].map(([postcode, s]) => [postcode, s.residual / (s.n + shrink)]));
}

/**
 * Per postcode and month sums of the region's offers of a deal type: one grouped query per region,
 * cached per snapshot like the regional statistics. The caller keeps only months before the
 * valuation date's month.
 */
export function postcodeMonthSums(
  db: DuckDBConnection,
  cache: SnapshotCache,
  countryCode: string,
  postcode: Postcode,
  deal: DealType,
): Promise<PostcodeMonth[]> {
  const region = regionOf(postcode);
  const key = `postcodes|${countryCode}|${region.kind}|${region.id}|${deal}`;
  return cachedRegional(cache, key, async () => {
    const rows = await postcodeMonthRows(db, { countryCode, postcode, deal }, cache.hasModelSums);
    return rows.map((r) => ({
      postcode: String(r.postcode),
      month: Number(r.month),
      n: Number(r.n),
      sumY: Number(r.sy),
      sumX: FEATURES.map((_, i) => Number(r[`sx${i}`] ?? 0)),
    }));
  });
}
