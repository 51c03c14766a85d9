import type { DuckDBValue } from '@duckdb/node-api';
import { withinRadius } from '../geo.js';

/** Where offers are looked for: within a radius of the point, or in one postcode. */
export type Area =
  | { kind: 'radius'; point: { latitude: number; longitude: number }; radius: number }
  | { kind: 'postcode'; point: { latitude: number; longitude: number }; postcode: string };

/**
 * Conditions on the offers table for the area, binding only the parameters they use (a prepared
 * statement refuses unused ones).
 */
export function areaConditions(area: Area, params: Record<string, DuckDBValue>): string[] {
  if (area.kind === 'radius') return withinRadius(area.point, area.radius, params);
  params.postcode = area.postcode;
  return ['division_level100 = $postcode'];
}

/** The table to search: offers ordered by place for a radius (see PLACE_INDEX_SQL), else all. */
export function areaTable(area: Area): 'offers_by_place' | 'offers' {
  return area.kind === 'radius' ? 'offers_by_place' : 'offers';
}
