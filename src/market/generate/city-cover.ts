import { distanceKm, type City } from './market-model.js';
import { cityRadiusKm } from './places-model.js';
import type { Postcode } from './postcodes.js';

/**
 * How much of each postcode a city covers: e^(−distance / radius) up to 3 radii (1 at the
 * centre, 0 beyond), the radius growing with the city's population (places-model.ts). Shapes both
 * where a city's demo people live and where its demo offers are drawn.
 */
export function cityCover(postcodes: readonly Postcode[], city: City, millions: number): number[] {
  const radius = cityRadiusKm(millions);
  return postcodes.map((p) => {
    const d = distanceKm(p.latitude, p.longitude, city.latitude, city.longitude);
    return d <= 3 * radius ? Math.exp(-d / radius) : 0;
  });
}
