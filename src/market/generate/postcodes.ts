import type { SnapshotBuild } from '../build-snapshot.js';
import { isCountryCode, type CountryCode } from '../countries.js';
import { queryRows } from '../duck.js';
import { locationFactor } from './market-model.js';
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

/** Offers gather where postcodes are dense (towns) and where prices are high (cities). */
export function postcodeWeights(postcodes: Postcode[]): number[] {
  const cell = (p: Postcode) => `${Math.floor(p.latitude * 20)}:${Math.floor(p.longitude * 20)}`;
  const density = new Map<string, number>();
  for (const p of postcodes) density.set(cell(p), (density.get(cell(p)) ?? 0) + 1);
  return postcodes.map((p) => (density.get(cell(p)) ?? 1) * p.location);
}
