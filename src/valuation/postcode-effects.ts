import type { DuckDBConnection } from '@duckdb/node-api';
import { queryPrepared } from '../market/duck.js';
import { FEATURES } from './features.js';
import type { HedonicFit } from './hedonic.js';
import { byDeal, LOG_PRICE_SQL, MONTH_SQL, PRICED_SQL, regionOf, regionWhere } from './regional.js';
import {
  cachedRegional,
  distanceMeters,
  type Postcode,
  type SnapshotCache,
} from './snapshot-cache.js';
import type { DealType } from './types.js';

/**
 * Postcode level effects: how far a postcode's offers lie above or below the regional hedonic
 * model (month effect + β·features), as a mean residual shrunk towards what its neighbours say. A
 * comparable from a neighbouring postcode is moved by the difference between the property's
 * postcode and its own, so a radius that crosses into a dearer or cheaper postcode does not bias
 * the value, and the property's own level enters the model's value (see regional-model.ts).
 */

/** Sums of one postcode's offers in one month (y = log price per m², x = features). */
export interface PostcodeMonth {
  postcode: string;
  month: number;
  n: number;
  sumY: number;
  sumX: number[];
}

/** A postcode's residuals around the regional model: their sum and the offers they come from. */
export interface ResidualSum {
  residual: number;
  /** Offers, possibly fractional (the other deal type's count at its weight). */
  n: number;
}

export interface Place {
  latitude: number;
  longitude: number;
}

/**
 * Shrinkage, in offers: a postcode's effect is (residual sum + this × neighbours' level) over
 * (offers + this), so a postcode with few offers keeps an effect near its neighbourhood's.
 */
export const POSTCODE_SHRINK = 5;

/**
 * Weight of one offer of the other deal type in a postcode's level: a place dear to buy is dear
 * to rent, but the rent/price ratio also moves with the place, so an offer of the other deal type
 * counts half.
 */
export const OTHER_DEAL_WEIGHT = 0.5;

/**
 * The neighbourhood level around a postcode: the residuals of the region's other postcodes,
 * Gaussian kernel with this bandwidth (centroid to centroid), cut at 3.5 bandwidths.
 */
export const NEIGHBOUR_BANDWIDTH_METERS = 3000;
const NEIGHBOUR_CUTOFF_METERS = 3.5 * NEIGHBOUR_BANDWIDTH_METERS;
/** Shrinkage of the neighbourhood level towards the region's (0), in kernel-weighted offers. */
export const NEIGHBOUR_SHRINK = 5;

/** Residual sums per postcode from the months before `beforeMonth` that the fit has an effect for. */
export function residualSums(
  rows: readonly PostcodeMonth[],
  fit: HedonicFit,
  beforeMonth: number,
): Map<string, ResidualSum> {
  const effects = new Map(fit.months.map((m) => [m.month, m.effect]));
  const sums = new Map<string, ResidualSum>();
  for (const r of rows) {
    const effect = effects.get(r.month);
    if (r.month >= beforeMonth || effect === undefined) continue;
    const explained = fit.beta.reduce((s, b, i) => s + b * (r.sumX[i] ?? 0), 0);
    const sum = sums.get(r.postcode) ?? { residual: 0, n: 0 };
    sum.residual += r.sumY - r.n * effect - explained;
    sum.n += r.n;
    sums.set(r.postcode, sum);
  }
  return sums;
}

/** `own` plus `other` at `weight` per offer (see OTHER_DEAL_WEIGHT). */
export function combineSums(
  own: ReadonlyMap<string, ResidualSum>,
  other: ReadonlyMap<string, ResidualSum>,
  weight = OTHER_DEAL_WEIGHT,
): Map<string, ResidualSum> {
  const out = new Map([...own].map(([id, s]) => [id, { ...s }]));
  for (const [id, s] of other) {
    const sum = out.get(id) ?? { residual: 0, n: 0 };
    sum.residual += weight * s.residual;
    sum.n += weight * s.n;
    out.set(id, sum);
  }
  return out;
}

export interface LevelOptions {
  shrink?: number;
  bandwidthMeters?: number;
  neighbourShrink?: number;
}

/**
 * The level effect of any postcode from the residual sums of the region's postcodes:
 * (residual sum + shrink × neighbourhood level) / (offers + shrink), where the neighbourhood level
 * is the kernel-weighted residual of the other postcodes over their kernel-weighted offers +
 * `neighbourShrink`. A postcode without offers gets its neighbourhood's level; one without a
 * known place, or without neighbours, is shrunk towards 0 (the region). Memoized.
 */
export function postcodeLevels(
  sums: ReadonlyMap<string, ResidualSum>,
  places: ReadonlyMap<string, Place>,
  options: LevelOptions = {},
): (postcode: string | null) => number {
  const shrink = options.shrink ?? POSTCODE_SHRINK;
  const bandwidth = options.bandwidthMeters ?? NEIGHBOUR_BANDWIDTH_METERS;
  const cutoff = Math.min(NEIGHBOUR_CUTOFF_METERS, 3.5 * bandwidth);
  const neighbourShrink = options.neighbourShrink ?? NEIGHBOUR_SHRINK;
  // A grid of cells at least `cutoff` wide: neighbours are in the 3×3 cells around a point.
  const located = [...sums].flatMap(([id, s]) => {
    const place = places.get(id);
    return place ? [{ id, ...s, ...place }] : [];
  });
  const maxLat = located.reduce((m, p) => Math.max(m, Math.abs(p.latitude)), 0);
  const cellLat = cutoff / 111_000;
  const cellLon = cellLat / Math.max(Math.cos((Math.min(maxLat + 1, 89) * Math.PI) / 180), 0.01);
  const cellOf = (p: Place) => [
    Math.floor(p.latitude / cellLat),
    Math.floor(p.longitude / cellLon),
  ];
  const grid = new Map<string, typeof located>();
  for (const p of located) {
    const key = cellOf(p).join(':');
    const list = grid.get(key) ?? [];
    list.push(p);
    grid.set(key, list);
  }
  const neighbourhood = (id: string, place: Place): number => {
    const [ci = 0, cj = 0] = cellOf(place);
    let residual = 0;
    let n = 0;
    for (let di = -1; di <= 1; di++)
      for (let dj = -1; dj <= 1; dj++)
        for (const q of grid.get(`${ci + di}:${cj + dj}`) ?? []) {
          if (q.id === id) continue;
          const d = distanceMeters(place.latitude, place.longitude, q.latitude, q.longitude);
          if (d > cutoff) continue;
          const k = Math.exp(-0.5 * (d / bandwidth) ** 2);
          residual += k * q.residual;
          n += k * q.n;
        }
    return residual / (n + neighbourShrink);
  };
  const memo = new Map<string, number>();
  return (id) => {
    if (id === null) return 0;
    const known = memo.get(id);
    if (known !== undefined) return known;
    const own = sums.get(id) ?? { residual: 0, n: 0 };
    const place = places.get(id);
    const prior = place ? neighbourhood(id, place) : 0;
    const level = (own.residual + shrink * prior) / (own.n + shrink);
    memo.set(id, level);
    return level;
  };
}

function sumsSql(region: { column: string } | undefined): string {
  const x = FEATURES.map((f, i) => `${f.sql} as x${i}`).join(', ');
  const sums = FEATURES.map((_, i) => `sum(x${i}) as sx${i}`).join(', ');
  return `
    select deal_type, postcode, month, count(*)::integer as n, sum(y) as sy, ${sums} from (
      select deal_type, division_level100 as postcode, ${MONTH_SQL} as month, ${LOG_PRICE_SQL} as y, ${x}
      from offers
      where ${regionWhere(region)} and ${PRICED_SQL} and division_level100 is not null)
    group by deal_type, postcode, month`;
}

/**
 * Per postcode and month sums of the region's offers, by deal type: one grouped query per region
 * for both deal types, cached per snapshot like the regional statistics. The caller keeps only
 * months before the valuation date's month.
 */
export function postcodeMonthSums(
  db: DuckDBConnection,
  cache: SnapshotCache,
  countryCode: string,
  postcode: Postcode,
): Promise<Record<DealType, PostcodeMonth[]>> {
  const region = regionOf(postcode);
  const key = `postcodes|${countryCode}|${region?.column ?? 'country'}|${region?.id ?? ''}`;
  return cachedRegional(cache, key, async () => {
    const params: Record<string, string> = { cc: countryCode };
    if (region) params.region = region.id;
    const rows = await queryPrepared(db, sumsSql(region), params);
    return byDeal(rows, (r) => ({
      postcode: String(r.postcode),
      month: Number(r.month),
      n: Number(r.n),
      sumY: Number(r.sy),
      sumX: FEATURES.map((_, i) => Number(r[`sx${i}`] ?? 0)),
    }));
  });
}
