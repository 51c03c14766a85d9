import type { DuckDBValue } from '@duckdb/node-api';

/** Mean Earth radius (IUGG), meters. */
export const EARTH_RADIUS_M = 6_371_008.8;

/** Haversine distance in meters from the bound point `$lat`/`$lon` to the row's point. */
export const DISTANCE_SQL = `2 * ${String(EARTH_RADIUS_M)} * asin(sqrt(sin(radians(latitude - $lat) / 2) ** 2 + cos(radians($lat)) * cos(radians(latitude)) * sin(radians(longitude - $lon) / 2) ** 2))`;

/**
 * Conditions keeping rows within `radius` meters of a point: a bounding box first (cheap, uses
 * zone maps), then the exact haversine distance. Adds its parameters to `params`.
 */
export function withinRadius(
  point: { latitude: number; longitude: number },
  radius: number,
  params: Record<string, DuckDBValue>,
): string[] {
  const dLat = (radius / EARTH_RADIUS_M) * (180 / Math.PI);
  const cos = Math.max(Math.cos((point.latitude * Math.PI) / 180), 1e-6);
  params.lat = point.latitude;
  params.lon = point.longitude;
  params.radius = radius;
  params.dLat = dLat;
  params.dLon = Math.min(180, dLat / cos);
  return [
    'latitude between $lat - $dLat and $lat + $dLat',
    'longitude between $lon - $dLon and $lon + $dLon',
    `${DISTANCE_SQL} <= $radius`,
  ];
}
