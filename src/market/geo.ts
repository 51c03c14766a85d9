import type { DuckDBValue } from '@duckdb/node-api';

/** Mean Earth radius (IUGG), meters. */
export const EARTH_RADIUS_M = 6_371_008.8;

/** Haversine distance in meters from the bound point `$lat`/`$lon` to the row's point. */
export const DISTANCE_SQL = `2 * ${String(EARTH_RADIUS_M)} * asin(sqrt(sin(radians(latitude - $lat) / 2) ** 2 + cos(radians($lat)) * cos(radians(latitude)) * sin(radians(longitude - $lon) / 2) ** 2))`;

const RAD = Math.PI / 180;

/** Haversine distance in meters between two points: the same as DISTANCE_SQL. */
export function haversineMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a =
    Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 +
    Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lon2 - lon1) * RAD) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(Math.min(1, a)));
}

// A box a hair wider than the circle: the box only saves work, the haversine distance decides,
// and rounding in the box's own arithmetic must never leave out a point on the circle.
const BOX_MARGIN = 1 + 1e-9;

/**
 * The half-height and half-width, in degrees, of the smallest latitude/longitude box holding
 * every point within `radius` meters of a point at `latitude` on the sphere. The half-width is
 * asin(sin θ / cos φ) for the angular radius θ, the widest longitude the circle reaches, not
 * θ / cos φ, which is narrower (a point due east at 9,999.999 m of a 10 km radius fell
 * outside); 180 where the circle holds a pole.
 */
export function radiusBox(latitude: number, radius: number): { dLat: number; dLon: number } {
  const theta = radius / EARTH_RADIUS_M;
  const phi = (latitude * Math.PI) / 180;
  const dLat = theta * (180 / Math.PI) * BOX_MARGIN;
  const reach = Math.sin(theta) / Math.cos(phi);
  const dLon =
    Math.abs(phi) + theta >= Math.PI / 2 || reach >= 1
      ? 180
      : Math.min(180, Math.asin(reach) * (180 / Math.PI) * BOX_MARGIN);
  return { dLat, dLon };
}

/**
 * Conditions keeping rows within `radius` meters of a point: a bounding box first (cheap, uses
 * zone maps), then the exact haversine distance. Adds its parameters to `params`.
 */
export function withinRadius(
  point: { latitude: number; longitude: number },
  radius: number,
  params: Record<string, DuckDBValue>,
): string[] {
  const { dLat, dLon } = radiusBox(point.latitude, radius);
  params.lat = point.latitude;
  params.lon = point.longitude;
  params.radius = radius;
  params.dLat = dLat;
  params.dLon = dLon;
  return [
    'latitude between $lat - $dLat and $lat + $dLat',
    'longitude between $lon - $dLon and $lon + $dLon',
    `${DISTANCE_SQL} <= $radius`,
  ];
}
