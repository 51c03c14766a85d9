import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DOUBLE, INTEGER, LIST, listValue } from '@duckdb/node-api';
import { queryPrepared } from '../market/duck.js';
import { MONTH_INDEX_SQL, PRICE_OF_ROW_SQL } from '../market/queries/offer-columns.js';
import { FEATURE_COUNT, FEATURES } from './features.js';
import type { HedonicFit, MonthStats } from './hedonic.js';
import type { Postcode } from './snapshot-cache.js';
import type { DealType } from './types.js';

/**
 * The sums the model is fitted from (per region and month, and per postcode and month), in one
 * place: the SQL that computes them when a snapshot is built, and the SQL that computes them from
 * the offers of one region for a snapshot written before these tables existed.
 */

/** Offers outside these sizes are not used (data errors, rooms, whole buildings). */
export const AREA_LIMITS = { min: 10, max: 2000 } as const;

export type RegionKind = 'level6' | 'level8' | 'country';

/**
 * The region of the price index and the hedonic fit: level 6, else level 8, else the country.
 * An offer belongs to the region of the same rule, so the two always agree.
 */
export function regionOf(postcode: Pick<Postcode, 'level6' | 'level8'>): {
  kind: RegionKind;
  id: string;
} {
  if (postcode.level6 !== null) return { kind: 'level6', id: postcode.level6 };
  if (postcode.level8 !== null) return { kind: 'level8', id: postcode.level8 };
  return { kind: 'country', id: '' };
}

/** The region of an offer row, by the rule of `regionOf`. */
export const REGION_KIND_SQL = `case when division_level6 is not null then 'level6'
  when division_level8 is not null then 'level8' else 'country' end`;
export const REGION_ID_SQL = "coalesce(division_level6, division_level8, '')";

/**
 * The same region as `REGION_KIND_SQL`/`REGION_ID_SQL`, as a filter the offers' order serves
 * (`$region` is the id `regionOf` gives, '' for the country).
 */
export const REGION_FILTER_SQL: Record<RegionKind, string> = {
  level6: 'division_level6 = $region',
  level8: 'division_level6 is null and division_level8 = $region',
  country: "division_level6 is null and division_level8 is null and $region = ''",
};

/** One row per usable offer: its keys, y = ln(price per m²) and the features x0…. */
function termsSql(where: string): string {
  const x = FEATURES.map((f, i) => `${f.sql} as x${i}`).join(', ');
  return `select country_code, deal_type, ${REGION_KIND_SQL} as region_kind,
      ${REGION_ID_SQL} as region, division_level100 as postcode, ${MONTH_INDEX_SQL} as month,
      ln(${PRICE_OF_ROW_SQL} / living_area) as y, ${x}
    from offers
    where deal_type in ('sale', 'rent') and ${PRICE_OF_ROW_SQL} > 0
      and living_area between ${AREA_LIMITS.min} and ${AREA_LIMITS.max} and (${where})`;
}

/**
 * The region sums in the order they are packed into one list per month (one column reads far
 * faster than a hundred): n, Σy, Σx (k), Σx·y (k), Σxᵢ·xⱼ for i ≤ j (k(k+1)/2).
 */
function regionSumsList(): string {
  const k = FEATURE_COUNT;
  const sums = ['count(*)', 'sum(y)'];
  for (let i = 0; i < k; i++) sums.push(`sum(x${i})`);
  for (let i = 0; i < k; i++) sums.push(`sum(x${i} * y)`);
  for (let i = 0; i < k; i++) for (let j = i; j < k; j++) sums.push(`sum(x${i} * x${j})`);
  return `[${sums.join(', ')}]::double[] as sums`;
}

/** The full k×k matrix (row-major) from its upper triangle packed row by row from `start`. */
export function symmetricFromUpper(packed: readonly number[], start: number): number[] {
  const k = FEATURE_COUNT;
  const matrix = new Array<number>(k * k).fill(0);
  let at = start;
  for (let i = 0; i < k; i++)
    for (let j = i; j < k; j++) {
      const v = packed[at++] ?? 0;
      matrix[i * k + j] = v;
      matrix[j * k + i] = v;
    }
  return matrix;
}

function unpackRegionSums(month: number, sums: readonly number[]): MonthStats {
  const k = FEATURE_COUNT;
  const sumXX = symmetricFromUpper(sums, 2 + 2 * k);
  return {
    month,
    n: sums[0] ?? 0,
    sumY: sums[1] ?? 0,
    sumX: sums.slice(2, 2 + k),
    sumXY: sums.slice(2 + k, 2 + 2 * k),
    sumXX,
  };
}

/** The postcode sums packed into one list per month: n, Σy, Σx (k). */
const POSTCODE_SUMS = `[count(*), sum(y), ${FEATURES.map((_, i) => `sum(x${String(i)})`).join(
  ', ',
)}]::double[] as sums`;

export const REGION_MONTHS_TABLE = 'valuation_region_months';
export const COUNTRY_WITHIN_TABLE = 'valuation_country_within';
export const COUNTRY_CELLS_TABLE = 'valuation_country_cells';
export const POSTCODE_MONTHS_TABLE = 'valuation_postcode_months';

const KEYS = 'country_code, deal_type, region_kind, region';

/** Position (1-based, as SQL reads lists) of Σxᵢ·xⱼ, i ≤ j, in a region sums list. */
function xxAt(i: number, j: number): number {
  const k = FEATURE_COUNT;
  // Rows 0…i−1 of the upper triangle hold k + (k − 1) + … entries.
  return 3 + 2 * k + i * k - (i * (i - 1)) / 2 + (j - i);
}

/**
 * The country's index is pooled from its region-months (pooled-index.ts): per month, the cross
 * products within each region-month summed over its regions (Σx·y − Σx Σy / n, k values, then
 * Σxᵢ·xⱼ − Σxᵢ Σxⱼ / n for i ≤ j); and each region-month's n, Σy and Σx as plain columns, the
 * regions numbered from 0 per country and deal type. Both are small beside the region sums,
 * which a country's first valuation would otherwise read whole (half a second for a country of
 * 3 M offers).
 */
function countryTablesSql(): string {
  const k = FEATURE_COUNT;
  const x = (i: number) => `sums[${String(3 + i)}]`;
  const within: string[] = [];
  for (let i = 0; i < k; i++)
    within.push(`sum(sums[${String(3 + k + i)}] - ${x(i)} * sums[2] / sums[1])`);
  for (let i = 0; i < k; i++)
    for (let j = i; j < k; j++)
      within.push(`sum(sums[${String(xxAt(i, j))}] - ${x(i)} * ${x(j)} / sums[1])`);
  const xs = Array.from({ length: k }, (_, i) => `${x(i)} as x${String(i)}`).join(', ');
  return `
  create table ${COUNTRY_WITHIN_TABLE} as
  select country_code, deal_type, month, [${within.join(', ')}]::double[] as within
  from ${REGION_MONTHS_TABLE} where sums[1] > 0
  group by country_code, deal_type, month order by country_code, deal_type, month;
  create table ${COUNTRY_CELLS_TABLE} as
  select country_code, deal_type,
    (dense_rank() over (partition by country_code, deal_type order by region_kind, region) - 1)::integer
      as region,
    month::integer as month, sums[1] as n, sums[2] as sy, ${xs}
  from ${REGION_MONTHS_TABLE} where sums[1] > 0
  order by country_code, deal_type, region, month;`;
}

/** The sums' tables as a snapshot build creates them. */
const SUMS_TABLES_SQL = `
  create table ${REGION_MONTHS_TABLE} as
  select ${KEYS}, month, ${regionSumsList()} from (${termsSql('true')})
  group by ${KEYS}, month order by ${KEYS}, month;
  create table ${POSTCODE_MONTHS_TABLE} as
  select ${KEYS}, postcode, month, ${POSTCODE_SUMS} from (${termsSql('division_level100 is not null')})
  group by ${KEYS}, postcode, month order by ${KEYS}, postcode, month;${countryTablesSql()}`;

/** The `snapshot_info` key under which a snapshot records what its sums were computed by. */
export const MODEL_SUMS_INFO_KEY = 'valuation.model_sums';

/**
 * What the stored sums were computed by: a digest of the SQL above, so it changes with any
 * feature's formula, the feature list, the offers used or the packing. A snapshot whose sums
 * another version computed is read as if it had none (the sums are computed from its offers at
 * query time, as for snapshots written before the tables existed) until the next import
 * rebuilds it: sums of other formulas would be fitted against today's features in code.
 */
export const MODEL_SUMS_VERSION = createHash('sha256')
  .update(SUMS_TABLES_SQL)
  .digest('hex')
  .slice(0, 16);

/**
 * Run when a snapshot is built (after its offers are complete): the sums of every region and of
 * every postcode, so that the first valuation in a region reads a few hundred rows instead of
 * aggregating the region's offers. Sorted by their keys: a lookup reads only its row groups.
 */
export const MODEL_SUMS_SQL = `${SUMS_TABLES_SQL}
  insert into snapshot_info values ('${MODEL_SUMS_INFO_KEY}', '${MODEL_SUMS_VERSION}');`;

/**
 * Whether the snapshot has the precomputed sums of today's model: snapshots written before the
 * tables existed have none, and those written with other features or formulas hold sums of
 * other values (or lists of another length, which would be misread).
 */
export async function hasModelSums(db: DuckDBConnection): Promise<boolean> {
  const rows = await queryPrepared(
    db,
    `select count(*)::integer as n from duckdb_tables()
      where database_name = current_database() and table_name in ($a, $b, $c, $d)`,
    {
      a: REGION_MONTHS_TABLE,
      b: POSTCODE_MONTHS_TABLE,
      c: COUNTRY_WITHIN_TABLE,
      d: COUNTRY_CELLS_TABLE,
    },
  );
  if (rows[0]?.n !== 4) return false;
  const version = await queryPrepared(db, 'select value from snapshot_info where key = $key', {
    key: MODEL_SUMS_INFO_KEY,
  });
  return version[0]?.value === MODEL_SUMS_VERSION;
}

export interface SumsKey {
  countryCode: string;
  postcode: Pick<Postcode, 'level6' | 'level8'>;
  deal: DealType;
}

function params(key: SumsKey): Record<string, string> {
  const region = regionOf(key.postcode);
  return { cc: key.countryCode, deal: key.deal, kind: region.kind, region: region.id };
}

const LOOKUP =
  'country_code = $cc and deal_type = $deal and region_kind = $kind and region = $region';

/** The offers of the key's region, filtered in a way the offers' order serves. */
function liveTerms(key: SumsKey, filter = ''): string {
  return `(${termsSql(
    `country_code = $cc and deal_type = $deal and ${filter}${REGION_FILTER_SQL[regionOf(key.postcode).kind]}`,
  )}) where region_kind = $kind`;
}

/** Per-month sums of the region's offers of the deal type, by month. */
export async function regionMonthStats(
  db: DuckDBConnection,
  key: SumsKey,
  precomputed: boolean,
): Promise<MonthStats[]> {
  const sql = precomputed
    ? `select month, sums from ${REGION_MONTHS_TABLE} where ${LOOKUP} order by month`
    : `select month, ${regionSumsList()} from ${liveTerms(key)} group by month order by month`;
  const rows = await queryPrepared(db, sql, params(key));
  return rows.map((r) => unpackRegionSums(Number(r.month), numbers(r.sums)));
}

/** A list value read from DuckDB as plain numbers. */
export function numbers(value: unknown): number[] {
  return Array.isArray(value) ? value.map(Number) : [];
}

/** What the fit leaves unexplained in one postcode: Σ residual over its offers, and how many. */
export interface PostcodeResidual {
  postcode: string;
  residual: number;
  n: number;
}

/** The per postcode and month sums (n, Σy, Σx…) of the key's region and deal type. */
function postcodeMonthsSql(key: SumsKey, precomputed: boolean): string {
  return precomputed
    ? `select postcode, month, sums from ${POSTCODE_MONTHS_TABLE} where ${LOOKUP}`
    : `select postcode, month, ${POSTCODE_SUMS}
        from ${liveTerms(key, 'division_level100 is not null and ')} group by postcode, month`;
}

/** The months of a fit the sums may use: those before `beforeMonth`. */
function fitMonths(fit: HedonicFit, beforeMonth: number) {
  return fit.months.filter((m) => m.month < beforeMonth);
}

/**
 * Per postcode of the region: the residual sum Σ(y − month effect − β·x) over its offers of the
 * months before `beforeMonth` that the fit has a month effect for. Summed in the database: a busy
 * region has tens of thousands of postcode-months but only hundreds of postcodes.
 */
export async function postcodeResiduals(
  db: DuckDBConnection,
  key: SumsKey,
  precomputed: boolean,
  fit: HedonicFit,
  beforeMonth: number,
): Promise<PostcodeResidual[]> {
  const months = fitMonths(fit, beforeMonth);
  if (months.length === 0) return [];
  const rows = await queryPrepared(
    db,
    `with pm as (${postcodeMonthsSql(key, precomputed)}),
          fit as (select unnest($months) as month, unnest($effects) as effect)
     select postcode,
            sum(pm.sums[2] - pm.sums[1] * fit.effect - list_dot_product(pm.sums[3:], $beta))
              as residual,
            sum(pm.sums[1])::integer as n
       from pm join fit using (month) group by postcode order by postcode`,
    {
      ...params(key),
      months: listValue(months.map((m) => m.month)),
      effects: listValue(months.map((m) => m.effect)),
      beta: listValue(fit.beta),
    },
    { months: LIST(INTEGER), effects: LIST(DOUBLE), beta: LIST(DOUBLE) },
  );
  return rows.map((r) => ({
    postcode: String(r.postcode),
    residual: Number(r.residual),
    n: Number(r.n),
  }));
}
