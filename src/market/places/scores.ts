import type { DuckDBConnection } from '@duckdb/node-api';
import { limits } from '../../limits.js';
import type { CountryCode } from '../countries.js';
import { poiMeasures, transitMeasure, type CategoryMeasure } from '../queries/surroundings.js';
import { POI_CATEGORIES, POI_GROUPS, type PoiGroup } from './categories.js';

/**
 * The walking-weighted count (Σ 1 − d/1000 over a group's places within 1 km) at which a group
 * scores 5. A convention, not a measurement of worth: each is the median weighted count over a
 * 1 km grid of Vienna (the 377 points within 800 m of a stop), rounded, so that 5 reads "served
 * like the middle of Vienna". Shopping's median there is 0 (the data holds only the 23 markets):
 * its 0.5 is one place 500 m away.
 */
export const HALF_SCORE: Record<PoiGroup, number> = {
  health: 0.5,
  education: 3.5,
  leisure: 14,
  catering: 3,
  shopping: 0.5,
};

/** What the places data says about one amenity group around a point. */
export interface GroupScore {
  within500m: number;
  within1000m: number;
  /** Meters to the nearest place of the group, rounded. */
  nearestDistance: number;
  /** 0–10, one decimal: 10 · w / (w + h) for walking-weighted count w and the group's h. */
  score: number;
}

export interface TransitScore {
  nearestStopDistance: number;
  stopsWithin500m: number;
}

/**
 * A point's location scores. A group (or transit) is null, "no data", when the snapshot holds
 * no place of it within `limits.places.coverageRadius`: the data cannot tell an area without
 * such places from one whose places were never imported, so it claims neither.
 */
export interface LocationScores {
  amenities: Record<PoiGroup, GroupScore | null>;
  transit: TransitScore | null;
}

/** 10 · w / (w + h), rounded to one decimal. */
export function groupScore(group: PoiGroup, walkingWeight: number): number {
  return Math.round((100 * walkingWeight) / (walkingWeight + HALF_SCORE[group])) / 10;
}

function scoreGroup(group: PoiGroup, measures: CategoryMeasure[]): GroupScore | null {
  const mine = measures.filter((m) => POI_CATEGORIES[m.category] === group);
  if (mine.length === 0) return null;
  const weight = mine.reduce((sum, m) => sum + m.walkingWeight, 0);
  return {
    within500m: mine.reduce((sum, m) => sum + m.within500, 0),
    within1000m: mine.reduce((sum, m) => sum + m.within1000, 0),
    nearestDistance: Math.round(Math.min(...mine.map((m) => m.nearest))),
    score: groupScore(group, weight),
  };
}

/** The location scores of a point, from the snapshot's places (README "Location scores"). */
export async function scoreLocation(
  db: DuckDBConnection,
  countryCode: CountryCode,
  point: { latitude: number; longitude: number },
): Promise<LocationScores> {
  const around = { countryCode, point, radius: limits.places.coverageRadius };
  const measures = await poiMeasures(db, around);
  const transit = await transitMeasure(db, around);
  return {
    amenities: Object.fromEntries(
      POI_GROUPS.map((group) => [group, scoreGroup(group, measures)]),
    ) as Record<PoiGroup, GroupScore | null>,
    transit:
      transit.nearest === null
        ? null
        : {
            nearestStopDistance: Math.round(transit.nearest),
            stopsWithin500m: transit.stopsWithin500,
          },
  };
}
