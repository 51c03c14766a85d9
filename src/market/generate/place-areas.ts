import type { SnapshotBuild } from '../build-snapshot.js';
import { COUNTRIES, type CountryCode } from '../countries.js';
import { queryRows } from '../duck.js';
import { CITIES, distanceKm } from './market-model.js';
import {
  AREA_KM2,
  CITY_POPULATION_MILLIONS,
  MAX_PLACE_RADIUS_KM,
  POPULATION_MILLIONS,
  SUBWAY_CITIES,
} from './places-model.js';
import { isResidentialPostcode, type Postcode } from './postcodes.js';
import { cityCover } from './city-cover.js';

/** A postcode as the demo places see it: its people, its area and how far places may spread. */
export interface PlaceArea {
  postcode: Postcode;
  /** The district (level 6, else level 8, else the postcode) whose imported places count. */
  region: string;
  population: number;
  areaKm2: number;
  /** Places are drawn within this distance of the centroid. */
  radiusKm: number;
  /** Distance to the nearest listed city with a subway (Infinity if none in the country). */
  subwayCityKm: number;
  /** Distance to the nearest listed city of the country. */
  cityKm: number;
}

/** Kilometers per degree of latitude (mean Earth radius). */
export const KM_PER_DEGREE = 111.195;

/** Postcodes nearer to each other than this share one place (several codes of one town). */
const SAME_PLACE_KM = 0.2;
/** Spacing assumed where no other postcode lies within the neighbouring grid cells. */
const ISOLATED_SPACING_KM = 10;
const MIN_RADIUS_KM = 0.3;

/**
 * For each postcode, the distance to the nearest other postcode of its country (its spacing)
 * and to the nearest postcode of another country, among those in the surrounding 0.1° grid
 * cells (at least 6.4 km in every direction up to 55° N: more than MAX_PLACE_RADIUS_KM / 0.45).
 */
async function spacings(
  build: SnapshotBuild,
): Promise<Map<string, { ownKm: number | null; foreignKm: number | null }>> {
  const rows = await queryRows(
    build.db,
    `with p as (
       select country_code, id, latitude, longitude,
         floor(latitude * 10)::integer as gy, floor(longitude * 10)::integer as gx
       from divisions where level = 100 and latitude is not null),
     cells as (
       select p.*, gy + dy as cy, gx + dx as cx
       from p, (select unnest([-1, 0, 1]) as dy), (select unnest([-1, 0, 1]) as dx)),
     pairs as (
       select c.country_code, c.id, q.country_code = c.country_code as same,
         ${String(KM_PER_DEGREE)} * sqrt((q.latitude - c.latitude) ** 2
           + ((q.longitude - c.longitude) * cos(radians(c.latitude))) ** 2) as km
       from cells c join p q on q.gy = c.cy and q.gx = c.cx)
     select country_code, id,
       min(km) filter (where same and km >= ${String(SAME_PLACE_KM)}) as own_km,
       min(km) filter (where not same) as foreign_km
     from pairs group by country_code, id`,
  );
  const km = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return new Map(
    rows.map((r) => [
      `${String(r.country_code)}:${String(r.id)}`,
      { ownKm: km(r.own_km), foreignKm: km(r.foreign_km) },
    ]),
  );
}

function nearestCityKm(p: Postcode, only?: (name: string) => boolean): number {
  let best = Infinity;
  for (const city of CITIES) {
    if (city.country !== p.country || (only && !only(city.name))) continue;
    best = Math.min(best, distanceKm(p.latitude, p.longitude, city.latitude, city.longitude));
  }
  return best;
}

/**
 * The demo population of every postcode of a country: each listed city's people shared by its
 * postcodes within 3 city radii (weights e^(−distance / radius)), the rest of the country's in
 * proportion to the location factor and the postcode's spacing (a village's postcode covers
 * more land, a town's more people per km²), less the part of a postcode a city already covers (its
 * weight, 1 at the centre): a city's people are not counted twice.
 */
function populations(
  inCountry: readonly Postcode[],
  country: CountryCode,
  spacingKm: readonly number[],
): number[] {
  const people = new Array<number>(inCountry.length).fill(0);
  // How much of each postcode a city covers (1 at its centre): the rest goes to the others.
  const covered = new Array<number>(inCountry.length).fill(0);
  let inCities = 0;
  for (const city of CITIES) {
    const millions = CITY_POPULATION_MILLIONS[city.name];
    if (city.country !== country || millions === undefined) continue;
    const weights = cityCover(inCountry, city, millions);
    const total = weights.reduce((a, b) => a + b, 0);
    if (total === 0) continue;
    inCities += millions;
    weights.forEach((w, i) => {
      people[i] = (people[i] ?? 0) + (millions * 1e6 * w) / total;
      covered[i] = Math.max(covered[i] ?? 0, w);
    });
  }
  const rest = Math.max(0, POPULATION_MILLIONS[country] - inCities) * 1e6;
  const restWeights = inCountry.map(
    (p, i) => p.location * (spacingKm[i] ?? 0) * (1 - (covered[i] ?? 0)),
  );
  const totalRest = restWeights.reduce((a, b) => a + b, 0);
  return people.map((n, i) => n + (rest * (restWeights[i] ?? 0)) / totalRest);
}

/**
 * The demo population and area of every postcode (populations above; the land area shared out
 * by the square of each postcode's spacing). The radius keeps every place nearer to its own
 * postcode than to any postcode of another country: less than half the distance to the
 * nearest foreign one.
 */
export async function placeAreas(
  build: SnapshotBuild,
  postcodes: Postcode[],
): Promise<PlaceArea[]> {
  const spacing = await spacings(build);
  const areas: PlaceArea[] = [];
  for (const country of COUNTRIES) {
    // A postcode at the very place of another country's (Jungholz, in Austria, has a German
    // code too) cannot hold places that are surely in its own country: it has none. Nor has a
    // code that houses nobody (its people and places would be counted twice, at the town's).
    const inCountry = postcodes.filter(
      (p) =>
        p.country === country &&
        isResidentialPostcode(p) &&
        (spacing.get(`${p.country}:${p.id}`)?.foreignKm ?? Infinity) >= SAME_PLACE_KM,
    );
    const ownKm = inCountry.map((p) =>
      Math.min(ISOLATED_SPACING_KM, spacing.get(`${p.country}:${p.id}`)?.ownKm ?? Infinity),
    );
    const people = populations(inCountry, country, ownKm);
    const cityKm = inCountry.map((p) => nearestCityKm(p));
    const totalArea = ownKm.reduce((a, d) => a + d * d, 0);
    inCountry.forEach((p, i) => {
      const own = ownKm[i] ?? ISOLATED_SPACING_KM;
      const foreign = spacing.get(`${p.country}:${p.id}`)?.foreignKm ?? Infinity;
      areas.push({
        postcode: p,
        region: p.level6 ?? p.level8 ?? p.id,
        population: people[i] ?? 0,
        areaKm2: (AREA_KM2[country] * own * own) / totalArea,
        radiusKm: Math.min(Math.max(0.6 * own, MIN_RADIUS_KM), 0.45 * foreign, MAX_PLACE_RADIUS_KM),
        subwayCityKm: nearestCityKm(p, (name) => SUBWAY_CITIES.has(name)),
        cityKm: cityKm[i] ?? Infinity,
      });
    });
  }
  return areas;
}
