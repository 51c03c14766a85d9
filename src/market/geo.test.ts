import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_M, radiusBox } from './geo.js';

const rad = (degrees: number) => (degrees * Math.PI) / 180;
const deg = (radians: number) => (radians * 180) / Math.PI;

/** The point `meters` from (lat, lon) on the initial bearing `bearing` (great circle). */
function destination(lat: number, lon: number, bearing: number, meters: number) {
  const d = meters / EARTH_RADIUS_M;
  const phi = rad(lat);
  const b = rad(bearing);
  const phi2 = Math.asin(Math.sin(phi) * Math.cos(d) + Math.cos(phi) * Math.sin(d) * Math.cos(b));
  const lambda = Math.atan2(
    Math.sin(b) * Math.sin(d) * Math.cos(phi),
    Math.cos(d) - Math.sin(phi) * Math.sin(phi2),
  );
  return { latitude: deg(phi2), longitude: lon + deg(lambda) };
}

describe('the box around a radius', () => {
  it.each([0, 35, 48.2, 60, 78.9, -52.3])(
    'holds every point of the circle at latitude %s, however wide the radius',
    (lat) => {
      for (const radius of [1, 100, 10_000, 500_000]) {
        const { dLat, dLon } = radiusBox(lat, radius);
        for (let bearing = 0; bearing < 360; bearing += 0.5) {
          // A hair inside the circle: the haversine test keeps it, so the box must too.
          const p = destination(lat, 16, bearing, radius * (1 - 1e-9));
          expect(
            Math.abs(p.latitude - lat),
            `${String(radius)} ${String(bearing)}`,
          ).toBeLessThanOrEqual(dLat);
          expect(
            Math.abs(p.longitude - 16),
            `${String(radius)} ${String(bearing)}`,
          ).toBeLessThanOrEqual(dLon);
        }
      }
    },
  );

  it('is barely wider than the circle: within a millionth of its widest point', () => {
    const lat = 48.2;
    const radius = 10_000;
    const { dLon } = radiusBox(lat, radius);
    const widest = Math.max(
      ...Array.from({ length: 3601 }, (_, i) =>
        Math.abs(destination(lat, 16, i / 10, radius).longitude - 16),
      ),
    );
    expect(dLon).toBeGreaterThanOrEqual(widest);
    expect(dLon / widest).toBeLessThan(1 + 1e-6);
  });

  it('spans every longitude where the circle holds a pole', () => {
    expect(radiusBox(89.99, 10_000).dLon).toBe(180);
    expect(radiusBox(-89.99, 10_000).dLon).toBe(180);
  });
});
