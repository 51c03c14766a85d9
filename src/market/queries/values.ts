import type { DuckDBValue } from '@duckdb/node-api';

/**
 * Reading the columns of a market query's rows. DuckDB gives SQL NULL as `null`, integers as
 * numbers or bigints and dates as the strings the query formats; each reader says what the
 * column is, so that no feature converts `DuckDBValue`s by hand.
 */

/** A number column that may be NULL. */
export const numberOrNull = (value: DuckDBValue | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);

/** A number column that is never NULL (counts, keys); a missing row reads as 0. */
export const numberOf = (value: DuckDBValue | undefined): number => Number(value ?? 0);

/** A text column that may be NULL. */
export const textOrNull = (value: DuckDBValue | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

/** A boolean column that may be NULL. */
export const booleanOrNull = (value: DuckDBValue | undefined): boolean | null =>
  value === null || value === undefined ? null : Boolean(value);

/** A point from `latitude`/`longitude` columns, or null when either is NULL. */
export function pointOrNull(
  latitude: DuckDBValue | undefined,
  longitude: DuckDBValue | undefined,
): { latitude: number; longitude: number } | null {
  return latitude === null ||
    latitude === undefined ||
    longitude === null ||
    longitude === undefined
    ? null
    : { latitude: Number(latitude), longitude: Number(longitude) };
}
