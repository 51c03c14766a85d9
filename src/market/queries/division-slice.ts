import type { DuckDBConnection, DuckDBVector } from '@duckdb/node-api';
import type { CountryCode, DivisionLevel } from '../countries.js';
import { queryChunks, queryPrepared } from '../duck.js';
import { MONTH_INDEX_SQL } from './offer-columns.js';

/**
 * One division's offers as columns of typed arrays: what offer statistics read, held in memory so
 * that a statistics request over a division it has seen before costs no query (see SliceCache).
 * Numbers are Float64 with NaN for NULL; yes/no columns Int8 with -1 for NULL; the start date
 * as its month index (src/dates.ts monthIndex), all statistics filter and group by.
 */
export interface DivisionSlice {
  readonly length: number;
  /**
   * The offers are ordered by deal type, property type and start month: each (deal, kind) pair
   * is one run of offers, `from` included to `to` excluded, ordered by month within it — so the
   * usual filters (deal type, property type, months) are runs found by binary search.
   */
  readonly runs: readonly { deal: number; kind: number; from: number; to: number }[];
  readonly deal: Uint8Array;
  readonly kind: Uint8Array;
  readonly month: Int32Array;
  readonly flags: Readonly<Record<SliceFlag, Int8Array>>;
  readonly numbers: Readonly<Record<SliceNumber, Float64Array>>;
  /** Bytes held by the arrays. */
  readonly bytes: number;
}

/** Codes of the text columns: deal and property type. */
export const DEAL_CODES = { sale: 0, rent: 1 } as const;
export const KIND_CODES = { apartment: 0, house: 1 } as const;

export const SLICE_FLAGS = ['is_active', 'is_new', 'is_private', 'has_open_kitchen'] as const;
export type SliceFlag = (typeof SLICE_FLAGS)[number];

export const SLICE_NUMBERS = [
  'sale_price',
  'rent_gross',
  'rent_net',
  'living_area',
  'number_of_rooms',
  'number_of_bedrooms',
  'building_year',
  'days_on_market',
  'latitude',
  'longitude',
] as const;
export type SliceNumber = (typeof SLICE_NUMBERS)[number];

/** Bytes per offer in a slice: the arrays above. */
export const SLICE_BYTES_PER_OFFER = 2 * 1 + 4 + SLICE_FLAGS.length * 1 + SLICE_NUMBERS.length * 8;

export interface DivisionKey {
  countryCode: CountryCode;
  level: DivisionLevel;
  id: string;
}

/** The number of offers of a division, to decide whether its slice fits before loading it. */
export async function divisionOfferCount(db: DuckDBConnection, key: DivisionKey): Promise<number> {
  const [row] = await queryPrepared(
    db,
    `select count(*)::integer as n from offers
     where country_code = $country and division_level${key.level} = $id`,
    { country: key.countryCode, id: key.id },
  );
  return Number(row?.n ?? 0);
}

/**
 * Copies a vector without NULLs (the query coalesces them) into `target` at `offset`: at once
 * from the typed array node-api reads the vector into (its `items`, which its types do not make
 * public), else value by value.
 */
export function copyVector(
  vector: DuckDBVector,
  target: Uint8Array | Int8Array | Int32Array | Float64Array,
  offset: number,
): void {
  const items = (vector as unknown as { items?: unknown }).items;
  if (items instanceof target.constructor) {
    target.set(items as typeof target, offset);
    return;
  }
  for (let row = 0; row < vector.itemCount; row++)
    target[offset + row] = Number(vector.getItem(row));
}

/**
 * Reads a division's offers into a slice with one query, copying each result chunk's vectors
 * into the typed arrays (converting the result to JavaScript rows or columns first costs ten
 * times more, and the first request of a division waits for this).
 */
export async function loadDivisionSlice(
  db: DuckDBConnection,
  key: DivisionKey,
): Promise<DivisionSlice> {
  const chunks = await queryChunks(
    db,
    `select (deal_type = 'rent')::utinyint as deal, (property_type = 'house')::utinyint as kind,
       ${MONTH_INDEX_SQL}::integer as month,
       ${SLICE_FLAGS.map((f) => `coalesce(${f}::tinyint, -1) as ${f}`).join(', ')},
       ${SLICE_NUMBERS.map((n) => `coalesce(${n}::double, 'NaN'::double) as ${n}`).join(', ')}
     from offers where country_code = $country and division_level${key.level} = $id
     order by deal, kind, month`,
    { country: key.countryCode, id: key.id },
  );
  const length = chunks.reduce((sum, chunk) => sum + chunk.rowCount, 0);
  const deal = new Uint8Array(length);
  const kind = new Uint8Array(length);
  const month = new Int32Array(length);
  const flags = Object.fromEntries(SLICE_FLAGS.map((f) => [f, new Int8Array(length)])) as Record<
    SliceFlag,
    Int8Array
  >;
  const numbers = Object.fromEntries(
    SLICE_NUMBERS.map((n) => [n, new Float64Array(length)]),
  ) as Record<SliceNumber, Float64Array>;
  // Columns in the order of the select, each of the vector type's own array type.
  const targets = [
    deal,
    kind,
    month,
    ...SLICE_FLAGS.map((f) => flags[f]),
    ...SLICE_NUMBERS.map((n) => numbers[n]),
  ];
  let offset = 0;
  for (const chunk of chunks) {
    targets.forEach((array, column) => copyVector(chunk.getColumnVector(column), array, offset));
    offset += chunk.rowCount;
  }
  const runs: { deal: number; kind: number; from: number; to: number }[] = [];
  for (let i = 0; i < length; i++) {
    const last = runs.at(-1);
    if (last && last.deal === deal[i] && last.kind === kind[i]) last.to = i + 1;
    else runs.push({ deal: deal[i] as number, kind: kind[i] as number, from: i, to: i + 1 });
  }
  return {
    length,
    runs,
    deal,
    kind,
    month,
    flags,
    numbers,
    bytes: length * SLICE_BYTES_PER_OFFER,
  };
}
