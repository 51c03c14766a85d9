/** A point on the Earth, degrees. */
export interface LatLon {
  latitude: number;
  longitude: number;
}

/**
 * Haversine distance in meters (mean Earth radius, IUGG), written out here as the tests'
 * reference, independent of the SQL the market queries use.
 */
export function metersBetween(a: LatLon, b: LatLon): number {
  const r = (d: number) => (d * Math.PI) / 180;
  const h =
    Math.sin(r(b.latitude - a.latitude) / 2) ** 2 +
    Math.cos(r(a.latitude)) *
      Math.cos(r(b.latitude)) *
      Math.sin(r(b.longitude - a.longitude) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
}
