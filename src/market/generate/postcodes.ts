import type { SnapshotBuild } from '../build-snapshot.js';
import { isCountryCode, type CountryCode } from '../countries.js';
import { queryRows } from '../duck.js';
import { cityCover } from './city-cover.js';
import { CITIES, locationFactor } from './market-model.js';
import { CITY_POPULATION_MILLIONS, POPULATION_MILLIONS } from './places-model.js';
import { Random } from './random.js';

/** A postcode of the reference divisions, with what the demo market draws from it. */
export interface Postcode {
  country: CountryCode;
  id: string;
  name: string;
  level6: string | null;
  level8: string | null;
  latitude: number;
  longitude: number;
  location: number;
  /** Regional price effect of the postcode's level-6 division (stable per division). */
  regional: number;
}

/** A number from a string, stable across runs: seeds the per-division price effects. */
export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export async function loadPostcodes(build: SnapshotBuild): Promise<Postcode[]> {
  const rows = await queryRows(
    build.db,
    `select country_code, id, name, level6_id, level8_id, latitude, longitude from divisions
     where level = 100 and latitude is not null order by country_code, id`,
  );
  return rows.flatMap((r) => {
    const country = String(r.country_code);
    if (!isCountryCode(country)) return [];
    const latitude = Number(r.latitude);
    const longitude = Number(r.longitude);
    const level6 = r.level6_id === null ? null : String(r.level6_id);
    const regionalRandom = new Random(hash(`${country}:${level6 ?? String(r.id)}`));
    return [
      {
        country,
        id: String(r.id),
        name: String(r.name),
        level6,
        level8: r.level8_id === null ? null : String(r.level8_id),
        latitude,
        longitude,
        location: locationFactor(country, latitude, longitude),
        regional: Math.exp(0.1 * regionalRandom.normal()),
      },
    ];
  });
}

/**
 * A city's share of its country's demo offers is at least this many times its share of the
 * country's people: listings gather in cities a little more than people do.
 */
export const CITY_OFFER_FACTOR = 1.5;

/**
 * A postcode of digits (and spaces). The French codes with letters (SP, AIR, CITYSSIMO:
 * military postal sectors, air bases, parcel lockers) house nobody.
 */
export const isResidentialPostcode = (p: Postcode): boolean => /^[0-9 ]+$/.test(p.id);

/**
 * How likely a demo offer of the country is at each of its postcodes. Offers gather where
 * postcodes are dense (towns) and prices are high (cities): the number of postcodes in the
 * postcode's map cell (0.05°) times its location factor. Where a city's postcodes are few and
 * spread wide (Wien's 23 districts), that count puts far fewer offers in the city than it has
 * people. A city's weight is counted as its people are spread (cityCover: e^(−d/r) within 3
 * radii); where it falls short of CITY_OFFER_FACTOR times the city's share of the country's
 * people, the shortfall is added, spread the same way (so the city proper gets most of it, its
 * outskirts some). Cities the count already favours keep its weights. Codes that house nobody
 * get no offers.
 */
export function postcodeWeights(inCountry: readonly Postcode[]): number[] {
  const country = inCountry[0]?.country;
  const homes = inCountry.map(isResidentialPostcode);
  const cell = (p: Postcode) => `${Math.floor(p.latitude * 20)}:${Math.floor(p.longitude * 20)}`;
  const density = new Map<string, number>();
  inCountry.forEach((p, i) => {
    if (homes[i]) density.set(cell(p), (density.get(cell(p)) ?? 0) + 1);
  });
  const weights = inCountry.map((p, i) =>
    homes[i] ? (density.get(cell(p)) ?? 1) * p.location : 0,
  );
  if (country === undefined) return weights;
  const total = weights.reduce((a, b) => a + b, 0);
  const raised = [...weights];
  for (const city of CITIES) {
    const millions = CITY_POPULATION_MILLIONS[city.name];
    if (city.country !== country || millions === undefined) continue;
    const cover = cityCover(inCountry, city, millions).map((c, i) => (homes[i] ? c : 0));
    const coverTotal = cover.reduce((a, b) => a + b, 0);
    if (coverTotal === 0) continue;
    const held = weights.reduce((sum, w, i) => sum + w * (cover[i] ?? 0), 0);
    const wanted = ((CITY_OFFER_FACTOR * millions) / POPULATION_MILLIONS[country]) * total;
    if (held >= wanted) continue;
    cover.forEach((c, i) => {
      raised[i] = (raised[i] ?? 0) + ((wanted - held) * c) / coverTotal;
    });
  }
  return raised;
}
