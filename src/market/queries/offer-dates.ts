import type { DuckDBConnection } from '@duckdb/node-api';
import type { CountryCode } from '../countries.js';
import { queryPrepared } from '../duck.js';

/** The first offer date of a country's market data, if it has offers. */
export async function firstOfferDate(
  db: DuckDBConnection,
  countryCode: CountryCode,
): Promise<string | undefined> {
  const [row] = await queryPrepared(
    db,
    `select strftime(min(start_date), '%Y-%m-%d') as first from offers where country_code = $country`,
    { country: countryCode },
  );
  return typeof row?.first === 'string' ? row.first : undefined;
}
