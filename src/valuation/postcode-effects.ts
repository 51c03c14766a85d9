import type { PostcodeResidual } from './model-sums.js';
import { distanceMeters } from './snapshot-cache.js';

/**
 * Postcode level effects: how far a postcode's offers lie above or below the regional hedonic
 * model (month effect + β·features), as a mean residual shrunk towards what its neighbours say. A
 * comparable from a neighbouring postcode is moved by the difference between the property's
 * postcode and its own, so a radius that crosses into a dearer or cheaper postcode does not bias
 * the value, and the property's own level enters the model's value (see regional-model.ts).
 */

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

/** Residual sums by postcode, as `postcodeResiduals` gives them. */
export function residualMap(rows: readonly PostcodeResidual[]): Map<string, ResidualSum> {
  return new Map(rows.map((r) => [r.postcode, { residual: r.residual, n: r.n }]));
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
