import type { DuckDBConnection } from '@duckdb/node-api';
import { queryPrepared } from '../../market/duck.js';
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
