import type { DuckDBConnection } from '@duckdb/node-api';
import type { CountryCode } from '../countries.js';
import { databaseIdentity, queryPrepared } from '../duck.js';

/**
 * First offer dates by snapshot and country. A snapshot never changes, and every valuation and
 * tracker request checks its date against this: at 10 M offers the query reads a country's
 * start dates, which an answer need not pay for again. Kept for the latest few snapshot files;
 * a database open for writing is always asked.
 */
const firstDates = new Map<string, Map<CountryCode, Promise<string | undefined>>>();
const SNAPSHOTS = 4;

/** The first offer date of a country's market data, if it has offers. */
export async function firstOfferDate(
  db: DuckDBConnection,
  countryCode: CountryCode,
): Promise<string | undefined> {
  const snapshot = (await databaseIdentity(db)).readOnlyFile;
  if (snapshot === null) return queryFirstOfferDate(db, countryCode);
  let dates = firstDates.get(snapshot);
  if (!dates) {
    dates = new Map();
    firstDates.set(snapshot, dates);
    if (firstDates.size > SNAPSHOTS) firstDates.delete(firstDates.keys().next().value as string);
  }
  const known = dates.get(countryCode);
  if (known) return known;
  const first = queryFirstOfferDate(db, countryCode);
  const ofSnapshot = dates;
  ofSnapshot.set(countryCode, first);
  // A failed query (deadline, interruption) is asked again next time.
  first.catch(() => ofSnapshot.delete(countryCode));
  return first;
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
