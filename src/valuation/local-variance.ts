import type { DuckDBConnection } from '@duckdb/node-api';
import { hasTable, queryPrepared, type Row } from '../market/duck.js';
import { MONTH_INDEX_SQL, PRICE_OF_ROW_SQL } from '../market/queries/offer-columns.js';
import {
  AREA_LIMITS,
  regionOf,
  REGION_FILTER_SQL,
  REGION_ID_SQL,
  REGION_KIND_SQL,
} from './model-sums.js';
import { cachedRegional, type Postcode, type SnapshotCache } from './snapshot-cache.js';
import type { DealType } from './types.js';
import { numberOrNull } from '../market/queries/values.js';

/**
 * How much the value of a place's immediate surroundings varies beyond what its postcode says:
 * the variance τ² of neighbourhood effects, measured per region from the offers themselves.
 *
 * The value moves from the regional model's towards its comparables by τ² / (τ² + spread²/n_eff)
 * (estimate.ts), so τ decides how much a neighbourhood may differ from its postcode. It differs
 * by market: in a city of dense, varied streets neighbouring blocks differ by 8% and more (Paris
 * sales: τ ≈ 0.08), while where the postcode describes a place well it is near zero. A constant
 * tuned on one market is wrong on the others, so τ is estimated per region and deal type when a
 * snapshot is built, as the between-cell variance of a one-way random-effects model (method of
 * moments) over cells of CELL_METERS:
 *
 * 1. each offer's log price per m² minus the mean of its group (postcode, year, property type and
 *    size class: what the model explains), kept where the group has GROUP_MIN offers or more and
 *    clipped to ±CLIP (real sales have heavy tails: sales within families, occupied dwellings);
 * 2. per cell its offers' count nᵢ and mean; per region N, the cells C, the within-cell sum of
 *    squares W and the between-cell sum of squares B = Σ nᵢ (meanᵢ − mean)²;
 * 3. τ² = (B − (C − 1) · W / (N − C)) / (N − Σ nᵢ² / N), at least 0.
 *
 * Offers without coordinates are left out: placed at their postcode's centroid they say nothing
 * about neighbourhoods within it.
 */

export const LOCAL_VARIANCE_TABLE = 'valuation_local_variance';

/** Cell size (m): about a block or two, the distance within which comparables count most. */
export const CELL_METERS = 200;
/** Offers per group below which the group's mean is too uncertain to measure offers against. */
const GROUP_MIN = 5;
/** Log deviations are clipped here so that a few non-market sales do not make a market look varied. */
const CLIP = 0.7;
/** Degrees of freedom within cells (N − C) below which the region's estimate is not used. */
export const MIN_WITHIN_DF = 30;

/**
 * τ when a region's estimate is missing or smaller: the comparables always count a little (the
 * value at which the shrinkage was calibrated before it was estimated per region).
 */
export const MIN_LOCAL_SD = 0.04;
/** τ above this is not believed: the cells' scatter is then mostly the size classes' crudeness. */
export const MAX_LOCAL_SD = 0.2;

const METERS_PER_DEGREE = 111_320;
const CELL_DEGREES = CELL_METERS / METERS_PER_DEGREE;

/**
 * What a cell is: a square of CELL_METERS (offers with coordinates), or, for the address effects
 * (address-effects.ts), a street or a building within a postcode (offers with an address).
 */
export type CellKind = 'grid' | 'street' | 'address';

const CELLS: Record<CellKind, { columns: string; filter: string }> = {
  grid: { columns: 'cell_y, cell_x', filter: 'latitude is not null and longitude is not null' },
  street: { columns: 'postcode, street_key', filter: 'street_key is not null' },
  address: {
    columns: 'postcode, street_key, house_key',
    filter: 'street_key is not null and house_key is not null',
  },
};

/**
 * A listing advertised again counts once, as among the comparables (comparables.ts
 * `distinctListings`): its copies would make single offers look closer to their neighbours than
 * they are, and weigh one flat as many. A copy has the listing's point — its coordinates, or in
 * the street and building moments its street and house key (in a street, offers without a house
 * number alike in every figure are taken for one listing, as in the street search) — and its
 * type, living area, rooms, floor and price; the latest is kept.
 */
function relistedOnce(point: string): string {
  return `qualify row_number() over (partition by country_code, deal_type, division_level100,
  ${point}, property_type, living_area, number_of_rooms, floor_number, ${PRICE_OF_ROW_SQL}
  order by start_date desc, id) = 1`;
}

/** The per-region moments over the offers that pass `where`, cells of the given kind. */
export function momentsSql(where: string, kind: CellKind = 'grid'): string {
  const cell = CELLS[kind];
  // The address keys are read only for address cells: snapshots written before they existed
  // still compute the grid's moments.
  const keys = kind === 'grid' ? '' : 'street_key, house_key,';
  return `
    with base as (
      select country_code, deal_type, ${REGION_KIND_SQL} as region_kind,
        ${REGION_ID_SQL} as region,
        division_level100 as postcode, property_type, ${MONTH_INDEX_SQL} // 12 as year,
        floor(ln(living_area) / ln(1.6)) as size_class,
        ln(${PRICE_OF_ROW_SQL} / living_area) as y, ${keys}
        floor(latitude / ${String(CELL_DEGREES)}) as cell_y,
        floor(longitude * cos(radians(latitude)) / ${String(CELL_DEGREES)}) as cell_x
      from offers
      where deal_type in ('sale', 'rent') and ${PRICE_OF_ROW_SQL} > 0
        and living_area between ${String(AREA_LIMITS.min)} and ${String(AREA_LIMITS.max)}
        and ${cell.filter} and division_level100 is not null
        and (${where})
      ${relistedOnce(kind === 'grid' ? 'latitude, longitude' : 'street_key, house_key')}
    ), deviations as (
      select *, y - avg(y) over g as e, count(*) over g as group_size
      from base window g as (partition by country_code, deal_type, postcode, year, property_type, size_class)
    ), kept as (
      select *, e - avg(e) over c as deviation, count(*) over c as cell_size
      from (select * exclude (e), least(greatest(e, -${String(CLIP)}), ${String(CLIP)}) as e
            from deviations where group_size >= ${String(GROUP_MIN)})
      window c as (partition by country_code, deal_type, region_kind, region, ${cell.columns})
    ), cells as (
      select country_code, deal_type, region_kind, region, count(*) as n, avg(e) as mean,
        coalesce(var_samp(e), 0) * (count(*) - 1) as within
      from kept group by country_code, deal_type, region_kind, region, ${cell.columns}
    ), ${spreadSources(kind, cell.columns)}, spreads as (
      select country_code, deal_type, region_kind, region, ${saleSpreadSql(cell.columns)}
      from spread_kept where cell_size >= 2 group by country_code, deal_type, region_kind, region
    )
    select country_code, deal_type, region_kind, region, ${MOMENTS}
    from cells full join spreads using (country_code, deal_type, region_kind, region)
    group by country_code, deal_type, region_kind, region
    ${kind === 'grid' ? pooledRows(cell.columns) : ''}`;
}

/** The region kind of a country's pooled row (never a region's kind: model-sums.ts). */
export const POOLED = 'pooled';

/**
 * The offers the single-offer spread is measured over (`spread_kept`: deviation from the cell's
 * mean, cell size). For grid cells, each offer's deviation is taken from its region's group
 * (region, year, type, size class) rather than its postcode's: within a cell of 200 m the
 * postcode's level cancels, and a region's groups reach GROUP_MIN offers where a thin sample's
 * postcode groups do not (the demo market at 20,000 offers: one postcode group of 5 among its
 * sales, none measured anywhere). Paris: 0.176 from postcode groups, 0.180 from the region's.
 * Street and building cells keep the postcode groups of τ.
 */
function spreadSources(kind: CellKind, cellColumns: string): string {
  if (kind !== 'grid') return 'spread_kept as (select * from kept)';
  return `spread_kept as (
      select *, e - avg(e) over c as deviation, count(*) over c as cell_size
      from (select *, least(greatest(y - avg(y) over g, -${String(CLIP)}), ${String(CLIP)}) as e,
              count(*) over g as group_size
            from base
            window g as (partition by country_code, deal_type, region_kind, region, year, property_type, size_class))
      where group_size >= ${String(GROUP_MIN)}
      window c as (partition by country_code, deal_type, region_kind, region, ${cellColumns})
    )`;
}

/**
 * The single-offer spread and its degrees of freedom within cells, over the rows of
 * `spread_kept` in cells of two or more. A deviation from its cell's own mean is short by
 * √((n − 1) / n) on average.
 */
function saleSpreadSql(cellColumns: string): string {
  return `1.4826 * median(abs(deviation) * sqrt(cell_size / (cell_size - 1))) as sale_spread,
  (count(*) - count(distinct (region_kind, region, ${cellColumns})))::bigint as spread_df`;
}
// Zero where a region's offers measure the spread but no cell of τ (a full join's row).
const MOMENTS = `coalesce(sum(n), 0)::bigint as offers, count(n)::bigint as cells,
  coalesce(sum(within), 0) as within, coalesce(sum(n * mean), 0) as sum_mean,
  coalesce(sum(n * mean * mean), 0) as sum_mean2, coalesce(sum(n * n), 0) as sum_n2,
  any_value(sale_spread) as sale_spread, any_value(spread_df) as spread_df`;

/** The country code of the pooled rows of all the snapshot's countries together. */
export const EVERY_COUNTRY = '*';

/**
 * More rows for grid cells (region kind POOLED): per country and deal type, the moments and
 * single-offer spread of all its regions' cells together, for regions too thin to measure their
 * own; and per deal type the same over every country (country code EVERY_COUNTRY), for a
 * country whose offers have points but share too few cells to measure it (a thin national
 * sample).
 */
const pooledRows = (cellColumns: string) => `
    union all
    select country_code, deal_type, '${POOLED}' as region_kind, '' as region, ${MOMENTS}
    from cells full join (
      select country_code, deal_type, ${saleSpreadSql(cellColumns)}
      from spread_kept where cell_size >= 2 group by country_code, deal_type
    ) using (country_code, deal_type)
    group by country_code, deal_type
    union all
    select '${EVERY_COUNTRY}' as country_code, deal_type, '${POOLED}' as region_kind, '' as region,
      ${MOMENTS}
    from cells full join (
      select deal_type, ${saleSpreadSql(cellColumns)}
      from spread_kept where cell_size >= 2 group by deal_type
    ) using (deal_type)
    group by deal_type`;

/**
 * Run when a snapshot is built: the moments of every region, one row each, and each country's
 * pooled row.
 */
export const LOCAL_VARIANCE_SQL = `
  create table ${LOCAL_VARIANCE_TABLE} as ${momentsSql('true')}
  order by country_code, deal_type, region_kind, region;`;

/** The moments of one region and deal type, as stored. */
export interface CellMoments {
  offers: number;
  cells: number;
  within: number;
  sumMean: number;
  sumMean2: number;
  sumN2: number;
  /**
   * Robust SD (1.4826 × median absolute deviation) of single offers around the mean of their
   * cell, null where no cell has two offers.
   */
  saleSpread: number | null;
  /**
   * Degrees of freedom within cells behind `saleSpread`; null in snapshots written before it
   * was stored, where the spread rests on the cells of τ (offers − cells).
   */
  spreadDf: number | null;
}

/** τ² from the moments (the method of moments, at least 0); undefined with too little evidence. */
export function localVariance(m: CellMoments): number | undefined {
  const withinDf = m.offers - m.cells;
  if (withinDf < MIN_WITHIN_DF || m.cells < 2) return undefined;
  const between = m.sumMean2 - (m.sumMean * m.sumMean) / m.offers;
  const denominator = m.offers - m.sumN2 / m.offers;
  if (!(denominator > 0)) return undefined;
  return Math.max(0, (between - ((m.cells - 1) * m.within) / withinDf) / denominator);
}

/** τ for the shrinkage: the region's estimate within [MIN_LOCAL_SD, MAX_LOCAL_SD]. */
export function localSdOf(moments: CellMoments | undefined): number {
  const variance = moments ? localVariance(moments) : undefined;
  if (variance === undefined) return MIN_LOCAL_SD;
  return Math.min(MAX_LOCAL_SD, Math.max(MIN_LOCAL_SD, Math.sqrt(variance)));
}

const KEY_FILTER =
  'country_code = $cc and deal_type = $deal and region_kind = $kind and region = $region';

/** What the region's offers say about neighbourhoods and single offers (see above). */
export interface LocalVariation {
  /** τ for the shrinkage, within [MIN_LOCAL_SD, MAX_LOCAL_SD]. */
  localSd: number;
  /**
   * How far a single offer typically lies from its neighbours' mean (log scale), where the
   * region has enough offers with coordinates to say (MIN_WITHIN_DF).
   */
  saleSpread: number | undefined;
  /**
   * The same over every country's cells together: for a country whose offers have points but
   * share too few cells to measure their own (a thin national sample; value-property.ts).
   */
  everySaleSpread?: number | undefined;
}

/**
 * τ from the region's moments; the single-offer spread from them where they measure it, else
 * from the country's pooled cells. The spread is the floor of a range against one observed
 * price (estimate.ts): a thin region (a few sales a year in a rural département) has too few
 * offers sharing a cell to measure it, and without it Paris ranges held the truth 51–58% of
 * the time instead of 63–66%. τ stays at its floor there: how far a place may differ from its
 * postcode is a region's own, and the shrinkage was calibrated with that floor.
 */
export function localVariationOf(
  moments: CellMoments | undefined,
  pooled?: CellMoments,
  everywhere?: CellMoments,
): LocalVariation {
  return {
    localSd: localSdOf(moments),
    saleSpread: measuredSpread(moments) ?? measuredSpread(pooled),
    everySaleSpread: measuredSpread(everywhere),
  };
}

function measuredSpread(moments: CellMoments | undefined): number | undefined {
  if (moments === undefined || moments.saleSpread === null) return undefined;
  const df = moments.spreadDf ?? moments.offers - moments.cells;
  return df >= MIN_WITHIN_DF ? moments.saleSpread : undefined;
}

/**
 * τ and the single-offer spread of the property's region for the deal type, cached per
 * snapshot. A snapshot written before the table existed computes the same from the region's
 * offers.
 */
export function localVariation(
  db: DuckDBConnection,
  cache: SnapshotCache,
  countryCode: string,
  postcode: Postcode,
  deal: DealType,
): Promise<LocalVariation> {
  const region = regionOf(postcode);
  const key = `local|${countryCode}|${region.kind}|${region.id}|${deal}`;
  return cachedRegional(cache, key, async () => {
    const params = { cc: countryCode, deal, kind: region.kind, region: region.id };
    // A snapshot written before the table existed has no pooled row: the region's alone.
    const sql = (await hasTable(db, LOCAL_VARIANCE_TABLE))
      ? `select * from ${LOCAL_VARIANCE_TABLE} where (${KEY_FILTER})
           or (country_code in ($cc, '${EVERY_COUNTRY}') and deal_type = $deal
               and region_kind = '${POOLED}')`
      : `select * from (${momentsSql(
          `country_code = $cc and deal_type = $deal and ${REGION_FILTER_SQL[region.kind]}`,
        )}) where region_kind = $kind`;
    const rows = await queryPrepared(db, sql, params);
    const own = rows.find((r) => r.region_kind !== POOLED);
    const pooled = rows.find((r) => r.region_kind === POOLED && r.country_code === countryCode);
    const everywhere = rows.find(
      (r) => r.region_kind === POOLED && r.country_code === EVERY_COUNTRY,
    );
    const moments = (row: Row | undefined) => row && momentsOfRow(row);
    return localVariationOf(moments(own), moments(pooled), moments(everywhere));
  });
}

/** The moments of a row of the table (or of the same query run on the offers). */
export function momentsOfRow(row: Row): CellMoments {
  return {
    offers: Number(row.offers),
    cells: Number(row.cells),
    within: Number(row.within),
    sumMean: Number(row.sum_mean),
    sumMean2: Number(row.sum_mean2),
    sumN2: Number(row.sum_n2),
    saleSpread: numberOrNull(row.sale_spread),
    spreadDf: numberOrNull(row.spread_df),
  };
}
