import type { CountryCode } from '../countries.js';

/**
 * The demo market: assumptions chosen to look like 2025 European markets at a glance. They make
 * demo data plausible; they are not market research.
 */

/** Asking price per m² (main currency) of an ordinary apartment outside the big cities, 2025. */
export const BASE_PRICE_PER_M2: Record<CountryCode, number> = {
  AT: 3400,
  BE: 2600,
  CH: 7200,
  CZ: 62_000,
  DE: 2900,
  FR: 2600,
  NL: 3900,
  SK: 2000,
};

/** Gross rental yield (yearly gross rent / price) outside the big cities. */
export const GROSS_YIELD: Record<CountryCode, number> = {
  AT: 0.042,
  BE: 0.05,
  CH: 0.04,
  CZ: 0.045,
  DE: 0.047,
  FR: 0.045,
  NL: 0.05,
  SK: 0.055,
};

/** Share of the demo offers in each country (roughly by market size). */
export const COUNTRY_SHARE: Record<CountryCode, number> = {
  DE: 0.28,
  FR: 0.24,
  NL: 0.09,
  CZ: 0.09,
  AT: 0.08,
  CH: 0.08,
  BE: 0.07,
  SK: 0.07,
};

/** Share of sale offers (the rest are rentals). */
export const SALE_SHARE: Record<CountryCode, number> = {
  AT: 0.5,
  BE: 0.65,
  CH: 0.35,
  CZ: 0.6,
  DE: 0.45,
  FR: 0.6,
  NL: 0.6,
  SK: 0.65,
};

export interface City {
  country: CountryCode;
  name: string;
  latitude: number;
  longitude: number;
  /** Price level at the centre relative to the country's base. */
  premium: number;
}

export const CITIES: readonly City[] = [
  { country: 'AT', name: 'Wien', latitude: 48.2082, longitude: 16.3738, premium: 1.75 },
  { country: 'AT', name: 'Salzburg', latitude: 47.8095, longitude: 13.055, premium: 1.6 },
  { country: 'AT', name: 'Innsbruck', latitude: 47.2692, longitude: 11.4041, premium: 1.6 },
  { country: 'AT', name: 'Graz', latitude: 47.0707, longitude: 15.4395, premium: 1.2 },
  { country: 'AT', name: 'Linz', latitude: 48.3069, longitude: 14.2858, premium: 1.15 },
  { country: 'BE', name: 'Bruxelles', latitude: 50.8503, longitude: 4.3517, premium: 1.45 },
  { country: 'BE', name: 'Antwerpen', latitude: 51.2194, longitude: 4.4025, premium: 1.3 },
  { country: 'BE', name: 'Gent', latitude: 51.0543, longitude: 3.7174, premium: 1.3 },
  { country: 'BE', name: 'Leuven', latitude: 50.8798, longitude: 4.7005, premium: 1.35 },
  { country: 'CH', name: 'Zürich', latitude: 47.3769, longitude: 8.5417, premium: 1.9 },
  { country: 'CH', name: 'Genève', latitude: 46.2044, longitude: 6.1432, premium: 1.85 },
  { country: 'CH', name: 'Lausanne', latitude: 46.5197, longitude: 6.6323, premium: 1.6 },
  { country: 'CH', name: 'Basel', latitude: 47.5596, longitude: 7.5886, premium: 1.4 },
  { country: 'CH', name: 'Bern', latitude: 46.948, longitude: 7.4474, premium: 1.3 },
  { country: 'CH', name: 'Zug', latitude: 47.1662, longitude: 8.5155, premium: 1.9 },
  { country: 'CZ', name: 'Praha', latitude: 50.0755, longitude: 14.4378, premium: 1.8 },
  { country: 'CZ', name: 'Brno', latitude: 49.1951, longitude: 16.6068, premium: 1.45 },
  { country: 'CZ', name: 'Ostrava', latitude: 49.8209, longitude: 18.2625, premium: 0.9 },
  { country: 'CZ', name: 'Plzeň', latitude: 49.7384, longitude: 13.3736, premium: 1.15 },
  { country: 'DE', name: 'München', latitude: 48.1351, longitude: 11.582, premium: 2.7 },
  { country: 'DE', name: 'Frankfurt am Main', latitude: 50.1109, longitude: 8.6821, premium: 1.9 },
  { country: 'DE', name: 'Hamburg', latitude: 53.5511, longitude: 9.9937, premium: 1.9 },
  { country: 'DE', name: 'Berlin', latitude: 52.52, longitude: 13.405, premium: 1.8 },
  { country: 'DE', name: 'Stuttgart', latitude: 48.7758, longitude: 9.1829, premium: 1.75 },
  { country: 'DE', name: 'Düsseldorf', latitude: 51.2277, longitude: 6.7735, premium: 1.6 },
  { country: 'DE', name: 'Köln', latitude: 50.9375, longitude: 6.9603, premium: 1.6 },
  { country: 'DE', name: 'Leipzig', latitude: 51.3397, longitude: 12.3731, premium: 1.2 },
  { country: 'FR', name: 'Paris', latitude: 48.8566, longitude: 2.3522, premium: 3.8 },
  { country: 'FR', name: 'Nice', latitude: 43.7102, longitude: 7.262, premium: 1.9 },
  { country: 'FR', name: 'Lyon', latitude: 45.764, longitude: 4.8357, premium: 1.8 },
  { country: 'FR', name: 'Bordeaux', latitude: 44.8378, longitude: -0.5792, premium: 1.7 },
  { country: 'FR', name: 'Marseille', latitude: 43.2965, longitude: 5.3698, premium: 1.35 },
  { country: 'FR', name: 'Toulouse', latitude: 43.6047, longitude: 1.4442, premium: 1.3 },
  { country: 'FR', name: 'Nantes', latitude: 47.2184, longitude: -1.5536, premium: 1.35 },
  { country: 'NL', name: 'Amsterdam', latitude: 52.3676, longitude: 4.9041, premium: 1.75 },
  { country: 'NL', name: 'Utrecht', latitude: 52.0907, longitude: 5.1214, premium: 1.4 },
  { country: 'NL', name: 'Den Haag', latitude: 52.0705, longitude: 4.3007, premium: 1.25 },
  { country: 'NL', name: 'Rotterdam', latitude: 51.9244, longitude: 4.4777, premium: 1.15 },
  { country: 'NL', name: 'Eindhoven', latitude: 51.4416, longitude: 5.4697, premium: 1.15 },
  { country: 'SK', name: 'Bratislava', latitude: 48.1486, longitude: 17.1077, premium: 1.85 },
  { country: 'SK', name: 'Košice', latitude: 48.7164, longitude: 21.2611, premium: 1.3 },
  { country: 'SK', name: 'Žilina', latitude: 49.2231, longitude: 18.7394, premium: 1.2 },
];

/** How far a city's premium reaches: it falls to 1/e of its excess at this distance. */
export const CITY_REACH_KM = 12;

/** Price index, 2025 = 1: growth to mid-2022, the 2022–2023 dip, recovery since. */
const PRICE_INDEX: [number, number][] = [
  [2015.0, 0.62],
  [2016.0, 0.66],
  [2017.0, 0.7],
  [2018.0, 0.75],
  [2019.0, 0.8],
  [2020.0, 0.85],
  [2021.0, 0.93],
  [2022.5, 1.04],
  [2023.5, 0.95],
  [2024.0, 0.96],
  [2025.0, 1.0],
  [2026.0, 1.04],
  [2027.0, 1.07],
];

/** Rents rose steadily and faster while prices dipped (2022–2023). */
const RENT_INDEX: [number, number][] = [
  [2015.0, 0.78],
  [2018.0, 0.84],
  [2021.0, 0.9],
  [2022.0, 0.93],
  [2023.0, 0.97],
  [2024.0, 0.985],
  [2025.0, 1.0],
  [2026.0, 1.03],
  [2027.0, 1.06],
];

function interpolate(table: [number, number][], year: number): number {
  const first = table[0];
  const last = table[table.length - 1];
  if (!first || !last) return 1;
  if (year <= first[0]) return first[1];
  if (year >= last[0]) return last[1];
  for (let i = 1; i < table.length; i++) {
    const [x1, y1] = table[i] ?? last;
    const [x0, y0] = table[i - 1] ?? first;
    if (year <= x1) return y0 + ((y1 - y0) * (year - x0)) / (x1 - x0);
  }
  return last[1];
}

/** `year` is fractional: 2023.5 is mid-2023. */
export const priceIndex = (year: number): number => interpolate(PRICE_INDEX, year);
export const rentIndex = (year: number): number => interpolate(RENT_INDEX, year);

export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a =
    Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 12_742 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Location factor of a point: the strongest nearby city premium, a discount far from all. */
export function locationFactor(country: CountryCode, latitude: number, longitude: number): number {
  let best = 1;
  let nearest = Infinity;
  for (const city of CITIES) {
    if (city.country !== country) continue;
    const d = distanceKm(latitude, longitude, city.latitude, city.longitude);
    nearest = Math.min(nearest, d);
    best = Math.max(best, 1 + (city.premium - 1) * Math.exp(-d / CITY_REACH_KM));
  }
  return nearest > 40 ? best * 0.85 : best;
}
