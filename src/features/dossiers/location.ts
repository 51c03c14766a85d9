import type { DuckDBConnection } from '@duckdb/node-api';
import { queryPrepared } from '../../market/duck.js';
import { limits } from '../../limits.js';
import { normalizePostcode, type CountryCode } from '../../market/countries.js';
import type { Coordinates } from './dossier.js';

/** Postcodes are the level-100 divisions of the market data. */
const POSTCODE_LEVEL = 100;

/** The centroid of a postcode of the country, when the divisions data knows it and its point. */
export async function postcodeCentroid(
  db: DuckDBConnection,
  countryCode: CountryCode,
  postCode: string,
): Promise<Coordinates | undefined> {
  const [row] = await queryPrepared(
    db,
    `select latitude, longitude from divisions
     where country_code = $country and level = ${POSTCODE_LEVEL} and id = $id
       and latitude is not null and longitude is not null`,
    { country: countryCode, id: normalizePostcode(postCode) },
  );
  return row ? { latitude: Number(row.latitude), longitude: Number(row.longitude) } : undefined;
}

const KM_PER_DEGREE = 111.32;

/**
 * Whether a point lies in the country, as far as the divisions data can tell: some postcode of
 * the country has its centroid within `limits.dossiers.countryReachKm` north–south and east–west
 * of it. A point near a border is in reach of its own country's postcodes; a point in another
 * country (a DE dossier in Vienna) or in the sea (an FR one at −45/170) is not. Undefined when
 * the data has no postcode points for the country: then nothing can be said.
 */
export async function nearCountry(
  db: DuckDBConnection,
  countryCode: CountryCode,
  { latitude, longitude }: Coordinates,
): Promise<boolean | undefined> {
  const reach = limits.dossiers.countryReachKm;
  const dLat = reach / KM_PER_DEGREE;
  const dLon = reach / (KM_PER_DEGREE * Math.max(Math.cos((latitude * Math.PI) / 180), 0.01));
  const [row] = await queryPrepared(
    db,
    `select count(*)::integer as postcodes,
            count(*) filter (where latitude between $latMin and $latMax
                               and longitude between $lonMin and $lonMax)::integer as near
       from divisions
      where country_code = $country and level = ${POSTCODE_LEVEL}
        and latitude is not null and longitude is not null`,
    {
      country: countryCode,
      latMin: latitude - dLat,
      latMax: latitude + dLat,
      lonMin: longitude - dLon,
      lonMax: longitude + dLon,
    },
  );
  if (!row || Number(row.postcodes) === 0) return undefined;
  return Number(row.near) > 0;
}
