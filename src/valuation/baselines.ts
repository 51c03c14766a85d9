import { EARTH_RADIUS_M, haversineMeters } from '../market/geo.js';
import { median } from './backtest.js';
import type { PropertyKind } from './types.js';

/**
 * Naive estimates the valuation model is measured against in backtests: anything the model does
 * must beat them on the same cases. Plain TypeScript over the training offers held in memory.
 */

/** A training offer: its price (sale price or rent) is known. */
export interface KnownOffer {
  id: string;
  countryCode: string;
  propertyType: PropertyKind;
  /** `YYYY-MM-DD` */
  date: string;
  price: number;
  livingArea: number;
  postcode: string | null;
  latitude: number | null;
  longitude: number | null;
}

export type OfferToValue = Omit<KnownOffer, 'price' | 'id'>;

/** The nearest-neighbour baseline: this many neighbours, living area within ×/÷ this ratio. */
export const KNN_NEIGHBOURS = 10;
export const KNN_SIZE_RATIO = 1.6;

const perM2 = (o: KnownOffer) => o.price / o.livingArea;

const RAD = Math.PI / 180;

/** Quarters counted from year 0: 2024-01-01 → 2024 × 4 + 0. */
export function quarterOf(date: string): number {
  return Number(date.slice(0, 4)) * 4 + Math.floor((Number(date.slice(5, 7)) - 1) / 3);
}

/**
 * A market-wide quarterly index per country: the median price per m² of each quarter's training
 * offers. A quarter without offers takes the level of the last quarter before it that has some
 * (so a quarter after the training data takes its last level: never extrapolated); a quarter
 * before the first takes the first.
 */
export class QuarterlyIndex {
  private readonly levels = new Map<string, Map<number, number>>();
  private readonly spans = new Map<string, { first: number; last: number }>();

  constructor(training: readonly KnownOffer[]) {
    const groups = new Map<string, Map<number, number[]>>();
    for (const o of training) {
      const byQuarter = groups.get(o.countryCode) ?? new Map<number, number[]>();
      groups.set(o.countryCode, byQuarter);
      const q = quarterOf(o.date);
      const list = byQuarter.get(q) ?? [];
      byQuarter.set(q, list);
      list.push(perM2(o));
    }
    for (const [country, byQuarter] of groups) {
      const levels = new Map<number, number>();
      for (const [q, values] of byQuarter) levels.set(q, median(values));
      const quarters = [...levels.keys()];
      this.levels.set(country, levels);
      this.spans.set(country, { first: Math.min(...quarters), last: Math.max(...quarters) });
    }
  }

  /** The level at a quarter, or NaN for a country without training offers. */
  at(countryCode: string, quarter: number): number {
    const levels = this.levels.get(countryCode);
    const span = this.spans.get(countryCode);
    if (!levels || !span) return NaN;
    let q = Math.max(span.first, Math.min(quarter, span.last));
    while (!levels.has(q)) q--;
    return levels.get(q) ?? NaN;
  }
}

/** Postcode baseline: the median price per m² of the postcode's training offers × living area. */
export class PostcodeMedian {
  private readonly medians = new Map<string, number>();

  constructor(training: readonly KnownOffer[]) {
    const groups = new Map<string, number[]>();
    for (const o of training) {
      if (o.postcode === null) continue;
      const key = `${o.countryCode}|${o.postcode}`;
      const list = groups.get(key) ?? [];
      groups.set(key, list);
      list.push(perM2(o));
    }
    for (const [key, values] of groups) this.medians.set(key, median(values));
  }

  /** null where the postcode has no training offers. */
  value(o: OfferToValue): number | null {
    if (o.postcode === null) return null;
    const m = this.medians.get(`${o.countryCode}|${o.postcode}`);
    return m === undefined ? null : m * o.livingArea;
  }
}

/** Grid cells of this many degrees index the training offers by place. */
const CELL_DEGREES = 0.005;
/** Great-circle distances are a little shorter than the grid's degree bounds suggest. */
const BOUND_SAFETY = 0.99;

interface Located {
  offer: KnownOffer;
  latitude: number;
  longitude: number;
}

/** The training offers of one country and property type, in grid cells. */
class Grid {
  readonly cells = new Map<string, Located[]>();
  minX = Infinity;
  maxX = -Infinity;
  minY = Infinity;
  maxY = -Infinity;

  add(offer: KnownOffer, latitude: number, longitude: number): void {
    const x = Math.floor(longitude / CELL_DEGREES);
    const y = Math.floor(latitude / CELL_DEGREES);
    const key = `${x}:${y}`;
    const list = this.cells.get(key) ?? [];
    this.cells.set(key, list);
    list.push({ offer, latitude, longitude });
    this.minX = Math.min(this.minX, x);
    this.maxX = Math.max(this.maxX, x);
    this.minY = Math.min(this.minY, y);
    this.maxY = Math.max(this.maxY, y);
  }
}

interface Neighbour {
  offer: KnownOffer;
  distance: number;
}

const byDistanceThenId = (a: Neighbour, b: Neighbour) =>
  a.distance - b.distance || (a.offer.id < b.offer.id ? -1 : a.offer.id > b.offer.id ? 1 : 0);

/**
 * Time-adjusted nearest-neighbour baseline: the median price per m² of the `KNN_NEIGHBOURS`
 * nearest training offers (haversine distance, ties by id) of the same country and property type
 * with a living area within ×/÷ `KNN_SIZE_RATIO`, each moved from its quarter to the valuation
 * quarter by the `QuarterlyIndex`, × living area. Needs coordinates.
 */
export class NearestNeighbours {
  private readonly grids = new Map<string, Grid>();

  constructor(
    training: readonly KnownOffer[],
    private readonly index: QuarterlyIndex,
  ) {
    for (const o of training) {
      if (o.latitude === null || o.longitude === null) continue;
      const key = `${o.countryCode}|${o.propertyType}`;
      const grid = this.grids.get(key) ?? new Grid();
      this.grids.set(key, grid);
      grid.add(o, o.latitude, o.longitude);
    }
  }

  /** The neighbours the value rests on, nearest first. */
  neighbours(o: OfferToValue): Neighbour[] {
    const grid = this.grids.get(`${o.countryCode}|${o.propertyType}`);
    if (!grid || o.latitude === null || o.longitude === null) return [];
    const { latitude, longitude } = o;
    const low = o.livingArea / KNN_SIZE_RATIO;
    const high = o.livingArea * KNN_SIZE_RATIO;
    const found: Neighbour[] = [];
    const take = (list: Located[] | undefined) => {
      for (const c of list ?? []) {
        const area = c.offer.livingArea;
        if (area < low || area > high) continue;
        found.push({
          offer: c.offer,
          distance: haversineMeters(latitude, longitude, c.latitude, c.longitude),
        });
      }
    };
    const cx = Math.floor(longitude / CELL_DEGREES);
    const cy = Math.floor(latitude / CELL_DEGREES);
    for (let r = 0; ; r++) {
      const covered =
        cx - r <= grid.minX && cx + r >= grid.maxX && cy - r <= grid.minY && cy + r >= grid.maxY;
      if ((2 * r + 1) ** 2 > grid.cells.size * 4 && !covered) {
        // Sparse data far around: scanning every offer is cheaper than walking empty rings.
        found.length = 0;
        for (const list of grid.cells.values()) take(list);
        break;
      }
      for (let x = cx - r; x <= cx + r; x++) {
        const edge = x === cx - r || x === cx + r;
        for (let y = cy - r; y <= cy + r; y += edge ? 1 : 2 * r) {
          take(grid.cells.get(`${x}:${y}`));
          if (r === 0) break;
        }
      }
      if (covered) break;
      if (found.length >= KNN_NEIGHBOURS) {
        found.sort(byDistanceThenId);
        // Every offer outside the rings walked is at least this far away.
        const outside =
          BOUND_SAFETY *
          r *
          CELL_DEGREES *
          RAD *
          EARTH_RADIUS_M *
          Math.cos(Math.min(89.9, Math.abs(latitude) + (r + 1) * CELL_DEGREES) * RAD);
        if ((found[KNN_NEIGHBOURS - 1]?.distance ?? Infinity) < outside) break;
      }
    }
    return found.sort(byDistanceThenId).slice(0, KNN_NEIGHBOURS);
  }

  /** null where no training offer qualifies. */
  value(o: OfferToValue & { date: string }): number | null {
    const neighbours = this.neighbours(o);
    if (neighbours.length === 0) return null;
    const target = this.index.at(o.countryCode, quarterOf(o.date));
    const adjusted = neighbours.map(
      (n) =>
        (perM2(n.offer) * target) / this.index.at(n.offer.countryCode, quarterOf(n.offer.date)),
    );
    return median(adjusted) * o.livingArea;
  }
}

/** Both baselines from one set of training offers (one deal type). */
export function baselinesOf(training: readonly KnownOffer[]): {
  postcode: PostcodeMedian;
  nearest: NearestNeighbours;
} {
  return {
    postcode: new PostcodeMedian(training),
    nearest: new NearestNeighbours(training, new QuarterlyIndex(training)),
  };
}
