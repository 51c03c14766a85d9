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
  /**
   * Regional price effect of the postcode's district (stable per district): its level-6
   * division, else its level-8 one, else its point (codes sharing a centroid share it).
   */
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
  // Codes per point, to tell the codes the source puts at one and the same point.
  const pointKey = (r: (typeof rows)[number]) =>
    `${String(r.country_code)}:${String(r.latitude)},${String(r.longitude)}`;
  const atPoint = new Map<string, number>();
  for (const r of rows) atPoint.set(pointKey(r), (atPoint.get(pointKey(r)) ?? 0) + 1);
  return rows.flatMap((r) => {
    const country = String(r.country_code);
    if (!isCountryCode(country)) return [];
    const latitude = Number(r.latitude);
    const longitude = Number(r.longitude);
    const level6 = r.level6_id === null ? null : String(r.level6_id);
    // The district is level 6, else level 8 where the country has no level 6 (the Netherlands'
    // municipalities, Slovakia's okresy): an effect per postcode put independent ±10% jumps
    // between neighbouring postcodes whose offers overlap. Codes without either share it with
    // the codes the source puts at the same point (459 of Bratislava's): offers drawn around one
    // point at independent price levels are neighbours no market has.
    const shared = (atPoint.get(pointKey(r)) ?? 0) > 1;
    const level8 = r.level8_id === null ? null : String(r.level8_id);
    const district =
      level6 ?? level8 ?? (shared ? `${String(latitude)},${String(longitude)}` : String(r.id));
    const regionalRandom = new Random(hash(`${country}:${district}`));
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
 * country's people, both counted as its people are spread (cityCover): listings gather in
 * cities a little more than people do.
 */
export const CITY_OFFER_FACTOR = 1.5;

/**
 * Not a French code other than five digits: CEDEX, SP, AIR and CITYSSIMO codes (business mail,
 * military postal sectors, air bases, parcel lockers) house nobody. The shipped divisions leave
 * them out (divisions/build-reference.ts); an imported division file may hold them.
 */
export const isResidentialPostcode = (p: Postcode): boolean =>
  p.country !== 'FR' || /^[0-9]{5}$/.test(p.id);

/** At most this share of a country's offers is drawn around raised cities (the rest by count). */
const MAX_RAISED = 0.9;

/**
 * How likely a demo offer of the country is at each of its postcodes. Offers gather where
 * postcodes are dense (towns) and prices are high (cities): the number of postcodes in the
 * postcode's map cell (0.05°) times its location factor. Where a city's postcodes are few and
 * spread wide (Wien's 23 districts), that count puts far fewer offers in the city than it has
 * people. A city's share under the count is counted as its people are spread (cityCover: each
 * postcode's weight times its cover, e^(−d/r) within 3 radii); where it falls short of
 * CITY_OFFER_FACTOR times the city's share of the country's people, the shortfall's share of
 * the country's offers is drawn around the city as its people are (in proportion to the
 * cover), the rest by the count. Cities the count already favours keep it. Codes that house
 * nobody, and codes outside a country's districts, get no offers (unless the country has no
 * other).
 */
export function postcodeWeights(inCountry: readonly Postcode[]): number[] {
  const country = inCountry[0]?.country;
  // Where the country has level-6 divisions, a code in none of them is a place the country's
  // post serves outside its territory (Clipperton Island, an uninhabited Pacific atoll;
  // Jungholz, an Austrian village with a German code): no district's market to draw it in.
  const divided = inCountry.some((p) => p.level6 !== null);
  const homes = inCountry.map((p) => isResidentialPostcode(p) && (!divided || p.level6 !== null));
  // A draw needs some weight: a country of codes that house nobody keeps them all.
  if (!homes.includes(true)) homes.fill(true);
  const cell = (p: Postcode) => `${Math.floor(p.latitude * 20)}:${Math.floor(p.longitude * 20)}`;
  const density = new Map<string, number>();
  inCountry.forEach((p, i) => {
    if (homes[i]) density.set(cell(p), (density.get(cell(p)) ?? 0) + 1);
  });
  const counted = inCountry.map((p, i) =>
    homes[i] ? (density.get(cell(p)) ?? 1) * p.location : 0,
  );
  if (country === undefined) return counted;
  const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
  const total = sum(counted);
  const raised = CITIES.flatMap((city) => {
    const millions = CITY_POPULATION_MILLIONS[city.name];
    if (city.country !== country || millions === undefined) return [];
    const cover = cityCover(inCountry, city, millions).map((c, i) => (homes[i] ? c : 0));
    const coverTotal = sum(cover);
    const held = sum(counted.map((w, i) => w * (cover[i] ?? 0))) / total;
    const shortfall = (CITY_OFFER_FACTOR * millions) / POPULATION_MILLIONS[country] - held;
    return coverTotal > 0 && shortfall > 0 ? [{ cover, coverTotal, shortfall }] : [];
  });
  const drawn = sum(raised.map((r) => r.shortfall));
  const scale = drawn > MAX_RAISED ? MAX_RAISED / drawn : 1;
  const rest = 1 - drawn * scale;
  return counted.map((w, i) =>
    raised.reduce(
      (weight, r) => weight + (scale * r.shortfall * (r.cover[i] ?? 0)) / r.coverTotal,
      (rest * w) / total,
    ),
  );
}
