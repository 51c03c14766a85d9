import type { DuckDBConnection } from '@duckdb/node-api';
import type { CountryCode } from '../countries.js';
import { queryPrepared } from '../duck.js';
import { snapshotMemo } from '../snapshot-memo.js';

/**
 * Every valuation and tracker request checks its date against this: at 10 M offers the query
 * reads a country's start dates, which an answer need not pay for again (per snapshot).
 */
const firstDates = snapshotMemo<string | undefined>();

/** The first offer date of a country's market data, if it has offers. */
export function firstOfferDate(
  db: DuckDBConnection,
  countryCode: CountryCode,
): Promise<string | undefined> {
  return firstDates(db, countryCode, () => queryFirstOfferDate(db, countryCode));
}

async function queryFirstOfferDate(
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
