import type { CountryCode } from '../countries.js';
import type { PoiCategory } from '../places/categories.js';

/**
 * The demo places: assumptions chosen so that points of interest, stops and area indicators
 * look like those of 2025 European countries at a glance, dense in cities and sparse in the
 * countryside. Like market-model.ts, they make demo data plausible; they are not research.
 */

/**
 * Inhabitants (millions, about 2024): those of the listed cities around their centres, the
 * others over all postcodes in proportion to their location factor (as prices, they are higher
 * near cities).
 */
export const POPULATION_MILLIONS: Record<CountryCode, number> = {
  AT: 9.2,
  BE: 11.8,
  CH: 9.0,
  CZ: 10.9,
  DE: 83.5,
  FR: 66.0,
  NL: 17.9,
  SK: 5.4,
};

/** Land area (km², metropolitan France), shared out over the postcodes by their spacing. */
export const AREA_KM2: Record<CountryCode, number> = {
  AT: 83_900,
  BE: 30_700,
  CH: 41_300,
  CZ: 78_900,
  DE: 357_600,
  FR: 551_700,
  NL: 33_700,
  SK: 49_000,
};

/** Inhabitants of the listed cities (millions, the city proper, about 2024). */
export const CITY_POPULATION_MILLIONS: Record<string, number> = {
  Wien: 2.0,
  Salzburg: 0.16,
  Innsbruck: 0.13,
  Graz: 0.3,
  Linz: 0.21,
  Bruxelles: 1.2,
  Antwerpen: 0.53,
  Gent: 0.27,
  Leuven: 0.1,
  Zürich: 0.44,
  Genève: 0.2,
  Lausanne: 0.14,
  Basel: 0.18,
  Bern: 0.14,
  Zug: 0.03,
  Praha: 1.36,
  Brno: 0.4,
  Ostrava: 0.28,
  Plzeň: 0.18,
  München: 1.5,
  'Frankfurt am Main': 0.77,
  Hamburg: 1.9,
  Berlin: 3.8,
  Stuttgart: 0.63,
  Düsseldorf: 0.63,
  Köln: 1.09,
  Leipzig: 0.62,
  Paris: 2.1,
  Nice: 0.35,
  Lyon: 0.52,
  Bordeaux: 0.26,
  Marseille: 0.87,
  Toulouse: 0.5,
  Nantes: 0.32,
  Amsterdam: 0.93,
  Utrecht: 0.37,
  'Den Haag': 0.56,
  Rotterdam: 0.66,
  Eindhoven: 0.24,
  Bratislava: 0.48,
  Košice: 0.23,
  Žilina: 0.08,
};

/**
 * How far a city's people reach from its centre: its postcodes share them with weights
 * e^(−distance / radius), up to 3 radii; 4 km for a city of a million, growing with the
 * square root of the population, at least 2 km.
 */
export const cityRadiusKm = (millions: number): number => Math.max(2, 4 * Math.sqrt(millions));

/**
 * Points of interest per 1,000 inhabitants, by category: a third to half of what the real
 * places of Vienna show for what its data covers (restaurants 1.5, kindergartens 0.85,
 * pharmacies 0.17), to keep the demo snapshot small; the same order of magnitude elsewhere.
 */
export const POIS_PER_1000: Record<PoiCategory, number> = {
  pharmacy: 0.1,
  doctor: 0.3,
  dentist: 0.15,
  hospital: 0.01,
  kindergarten: 0.3,
  school: 0.18,
  university: 0.004,
  park: 0.2,
  playground: 0.15,
  sport_facility: 0.1,
  sports_centre: 0.04,
  pitch: 0.15,
  fitness_centre: 0.05,
  fitness_station: 0.02,
  swimming_venue: 0.01,
  museum: 0.02,
  theatre: 0.008,
  cinema: 0.005,
  restaurant: 0.6,
  cafe: 0.25,
  bar: 0.1,
  pub: 0.06,
  biergarten: 0.005,
  nightclub: 0.01,
  market: 0.01,
  supermarket: 0.15,
  bakery: 0.15,
  convenience: 0.08,
  shopping_centre: 0.005,
};

/** What demo names call a category ("Demo pharmacy 3, Wien"). */
export const POI_LABELS: Record<PoiCategory, string> = {
  pharmacy: 'pharmacy',
  doctor: 'medical practice',
  dentist: 'dental practice',
  hospital: 'hospital',
  kindergarten: 'kindergarten',
  school: 'school',
  university: 'university',
  park: 'park',
  playground: 'playground',
  sport_facility: 'sports ground',
  sports_centre: 'sports centre',
  pitch: 'pitch',
  fitness_centre: 'fitness centre',
  fitness_station: 'fitness station',
  swimming_venue: 'swimming pool',
  museum: 'museum',
  theatre: 'theatre',
  cinema: 'cinema',
  restaurant: 'restaurant',
  cafe: 'café',
  bar: 'bar',
  pub: 'pub',
  biergarten: 'beer garden',
  nightclub: 'club',
  market: 'market',
  supermarket: 'supermarket',
  bakery: 'bakery',
  convenience: 'corner shop',
  shopping_centre: 'shopping centre',
};

/** Stops: a few in every postcode (buses reach villages), plus this many per 1,000 people. */
export const STOPS_PER_POSTCODE = 2;
export const STOPS_PER_1000 = 0.8;

/** Cities with an underground or metro: stops near their centre may be subway stations. */
export const SUBWAY_CITIES = new Set([
  'Wien',
  'Bruxelles',
  'Lausanne',
  'Praha',
  'München',
  'Frankfurt am Main',
  'Hamburg',
  'Berlin',
  'Stuttgart',
  'Düsseldorf',
  'Köln',
  'Paris',
  'Lyon',
  'Marseille',
  'Toulouse',
  'Amsterdam',
  'Rotterdam',
]);

/**
 * Places keep within this distance of their postcode's centroid (nearer where postcodes are
 * dense): less than 0.45 × the 6.4 km that the grid of place-areas.ts surely looks across.
 */
export const MAX_PLACE_RADIUS_KM = 2.5;

/** Yearly net income per inhabitant outside the big cities (main currency). */
export const NET_INCOME: Record<CountryCode, number> = {
  AT: 27_000,
  BE: 25_000,
  CH: 52_000,
  CZ: 330_000,
  DE: 26_000,
  FR: 23_000,
  NL: 28_000,
  SK: 12_500,
};

/** Unemployed per 1,000 inhabitants of working age. */
export const UNEMPLOYED_PER_1000: Record<CountryCode, number> = {
  AT: 55,
  BE: 57,
  CH: 41,
  CZ: 28,
  DE: 33,
  FR: 74,
  NL: 37,
  SK: 55,
};

/** Share of dwellings their owners live in, outside the cities (%). */
export const OWNER_OCCUPIED_PCT: Record<CountryCode, number> = {
  AT: 58,
  BE: 72,
  CH: 42,
  CZ: 78,
  DE: 52,
  FR: 66,
  NL: 70,
  SK: 92,
};

export type IndicatorGroup = 'demographics' | 'economics' | 'housing';

/** The area of a division as the indicators see it. */
export interface AreaFacts {
  country: CountryCode;
  population: number;
  areaKm2: number;
  /** Population-weighted location factor (market-model.ts). */
  location: number;
  currency: string;
}

export interface DemoIndicator {
  name: string;
  group: IndicatorGroup;
  year: number;
  unit: string | ((area: AreaFacts) => string);
  /** The value for an area; `noise` is a standard normal drawn for this division and indicator. */
  value: (area: AreaFacts, noise: number) => number;
  /** Decimal places kept. */
  digits: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
/** Orders of magnitude of density above 100 people per km² (negative below). */
const urban = (a: AreaFacts) => Math.log10(Math.max(1, a.population / a.areaKm2) / 100);
const householdSize = (a: AreaFacts) => clamp(2.35 - 0.18 * urban(a), 1.6, 2.9);

/**
 * The demo indicators, named as the real ones of Vienna where they have a counterpart
 * (population, avg_age, net_income, unemployed_per_1000, pct_tertiary_education…).
 */
export const DEMO_INDICATORS: readonly DemoIndicator[] = [
  {
    name: 'population',
    group: 'demographics',
    year: 2025,
    unit: 'persons',
    value: (a) => a.population,
    digits: 0,
  },
  {
    name: 'area_km2',
    group: 'demographics',
    year: 2025,
    unit: 'km²',
    value: (a) => a.areaKm2,
    digits: 1,
  },
  {
    name: 'population_density',
    group: 'demographics',
    year: 2025,
    unit: 'persons per km²',
    value: (a) => a.population / a.areaKm2,
    digits: 0,
  },
  {
    name: 'avg_age',
    group: 'demographics',
    year: 2025,
    unit: 'years',
    value: (a, n) => clamp(44 - 1.8 * urban(a) + 0.8 * n, 37, 50),
    digits: 1,
  },
  {
    name: 'pct_over_65',
    group: 'demographics',
    year: 2025,
    unit: '%',
    value: (a, n) => clamp(21 - 2.5 * urban(a) + 1.2 * n, 10, 32),
    digits: 1,
  },
  {
    name: 'net_income',
    group: 'economics',
    year: 2023,
    unit: (a) => `${a.currency} per year`,
    value: (a, n) => NET_INCOME[a.country] * a.location ** 0.6 * Math.exp(0.06 * n),
    digits: 0,
  },
  {
    name: 'unemployed_per_1000',
    group: 'economics',
    year: 2024,
    unit: 'per 1,000 inhabitants',
    value: (a, n) => UNEMPLOYED_PER_1000[a.country] * (1 + 0.1 * urban(a)) * Math.exp(0.25 * n),
    digits: 1,
  },
  {
    name: 'pct_tertiary_education',
    group: 'economics',
    year: 2023,
    unit: '%',
    value: (a, n) => clamp(28 + 6 * urban(a) + 12 * (a.location - 1) + 2 * n, 10, 65),
    digits: 1,
  },
  {
    name: 'avg_household_size',
    group: 'housing',
    year: 2022,
    unit: 'persons',
    value: (a, n) => householdSize(a) + 0.05 * n,
    digits: 2,
  },
  {
    name: 'dwellings',
    group: 'housing',
    year: 2022,
    unit: 'dwellings',
    // Some dwellings stand empty or are second homes: about 6% more than households.
    value: (a) => (a.population / householdSize(a)) * 1.06,
    digits: 0,
  },
  {
    name: 'pct_owner_occupied',
    group: 'housing',
    year: 2022,
    unit: '%',
    value: (a, n) => clamp(OWNER_OCCUPIED_PCT[a.country] - 14 * urban(a) + 3 * n, 8, 95),
    digits: 1,
  },
  {
    name: 'pct_single_households',
    group: 'housing',
    year: 2022,
    unit: '%',
    value: (a, n) => clamp(36 + 9 * urban(a) + 2 * n, 15, 60),
    digits: 1,
  },
];
