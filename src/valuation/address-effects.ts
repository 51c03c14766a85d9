import type { DuckDBConnection } from '@duckdb/node-api';
import { houseKeySql, streetKeySql } from '../market/address-key.js';
import { hasTable, queryPrepared } from '../market/duck.js';
import type { AdjustedComparable } from './estimate.js';
import {
  localVariance,
  momentsOfRow,
  momentsSql,
  type CellKind,
  type CellMoments,
} from './local-variance.js';
import { regionOf } from './model-sums.js';
import { cachedRegional, type Postcode, type SnapshotCache } from './snapshot-cache.js';
import type { DealType, PropertyToValue } from './types.js';

/**
 * Offers in the property's own street and building. Where offers carry no coordinates (listings
 * known by postcode, such as Vienna's), the comparables come from the whole postcode and nothing
 * else says where in it a property lies; the address does. Rents asked in the same building
 * differ far less than rents across a postcode (Vienna: a building's median rent per m² is within
 * 7% of a listing's rent half the time, the postcode's within 16%).
 *
 * Two nested random effects around the comparables' value, each shrunk by its measured variance:
 * the street's offers move the value by w_s = τ_s² / (τ_s² + σ_s² / n_s) of their mean deviation,
 * then the building's by w_b = τ_b² / (τ_b² + σ_b² / n_b) of what is left of theirs. τ_s² is
 * the variance between streets of a postcode, τ_b² the further variance between buildings of a
 * street, σ the scatter of single offers within a street or building: all measured per region and
 * deal type when the snapshot is built (one-way random-effect moments, local-variance.ts, with
 * streets and buildings as cells), so where addresses say nothing the weights are near zero.
 */

export const ADDRESS_VARIANCE_TABLE = 'valuation_address_variance';

/** Run when a snapshot is built: the moments of every region's street and building cells. */
export const ADDRESS_VARIANCE_SQL = `
  create table ${ADDRESS_VARIANCE_TABLE} as
  select 'street' as cell_kind, * from (${momentsSql('true', 'street')})
  union all by name
  select 'address' as cell_kind, * from (${momentsSql('true', 'address')})
  order by cell_kind, country_code, deal_type, region_kind, region;`;

/** Deviations are clipped here, as in the variance estimate: one odd listing must not decide. */
const CLIP = 0.7;
/** Between-street or -building SD above this is not believed (as for τ). */
const MAX_SD = 0.3;

/** The measured variances of a region (see above); undefined parts where evidence is too thin. */
export interface AddressVariation {
  streetSd: number;
  streetSpread: number;
  buildingSd: number;
  buildingSpread: number;
}

function withinSd(m: CellMoments): number {
  const df = m.offers - m.cells;
  return m.saleSpread ?? Math.sqrt(df > 0 ? m.within / df : 0);
}

/** The variances from the street and building moments; undefined without enough of either. */
export function addressVariationOf(
  street: CellMoments | undefined,
  building: CellMoments | undefined,
): AddressVariation | undefined {
  const streetVariance = street && localVariance(street);
  const total = building && localVariance(building);
  if (!street || !building || streetVariance === undefined || total === undefined) return undefined;
  return {
    streetSd: Math.min(MAX_SD, Math.sqrt(streetVariance)),
    streetSpread: withinSd(street),
    buildingSd: Math.min(MAX_SD, Math.sqrt(Math.max(0, total - streetVariance))),
    buildingSpread: withinSd(building),
  };
}

/**
 * The region's address variation for the deal type, cached per snapshot; undefined for a
 * snapshot written before addresses were kept (it has no address keys either).
 */
export function addressVariation(
  db: DuckDBConnection,
  cache: SnapshotCache,
  countryCode: string,
  postcode: Postcode,
  deal: DealType,
): Promise<AddressVariation | undefined> {
  const region = regionOf(postcode);
  return cachedRegional(
    cache,
    `address|${countryCode}|${region.kind}|${region.id}|${deal}`,
    async () => {
      if (!(await hasTable(db, ADDRESS_VARIANCE_TABLE))) return undefined;
      const rows = await queryPrepared(
        db,
        `select * from ${ADDRESS_VARIANCE_TABLE}
        where country_code = $cc and deal_type = $deal and region_kind = $kind and region = $region`,
        { cc: countryCode, deal, kind: region.kind, region: region.id },
      );
      const of = (kind: CellKind) => {
        const row = rows.find((r) => r.cell_kind === kind);
        return row && momentsOfRow(row);
      };
      return addressVariationOf(of('street'), of('address'));
    },
  );
}

/**
 * The street variance left once comparables around the point have moved the value: they already
 * tell the neighbourhood (τ of local-variance.ts, cells of 200 m), which a street's variance
 * around its postcode largely is. Where comparables come from the whole postcode (no
 * coordinates), `neighbourhoodSd` is 0 and the street keeps all of it.
 */
export function beyondNeighbourhood(
  variation: AddressVariation,
  neighbourhoodSd: number,
): AddressVariation {
  const streetVariance = Math.max(0, variation.streetSd ** 2 - neighbourhoodSd ** 2);
  return { ...variation, streetSd: Math.sqrt(streetVariance) };
}

/** The property's street and house keys, by the import's own expressions. */
export async function addressKeys(
  db: DuckDBConnection,
  property: PropertyToValue,
): Promise<{ street: string | null; house: string | null }> {
  if (property.street === undefined && property.houseNumber === undefined)
    return { street: null, house: null };
  const rows = await queryPrepared(
    db,
    `select ${streetKeySql('$street', '$house')} as street, ${houseKeySql('$street', '$house')} as house`,
    { street: property.street ?? null, house: property.houseNumber ?? null },
  );
  const row = rows[0];
  return {
    street: typeof row?.street === 'string' ? row.street : null,
    house: typeof row?.house === 'string' ? row.house : null,
  };
}

/** A street offer adjusted to the property, and whether it is in the property's building. */
export interface AddressOffer extends AdjustedComparable {
  sameBuilding: boolean;
}

export interface AddressShift {
  /** Added to the log price per m². */
  shift: number;
  /** Variance of the property's own difference from its comparables that the shift explains. */
  explained: number;
  /**
   * What is left unexplained of the property's own difference from the comparables: the scatter of
   * single offers at the finest level used plus the effects' posterior variance. A floor for the
   * range (estimate.ts `forecastSd`).
   */
  remaining: number;
  streetOffers: number;
  buildingOffers: number;
}

function shrunkMean(
  deviations: readonly { e: number; weight: number }[],
  sd: number,
  spread: number,
): { mean: number; weight: number } {
  const sw = deviations.reduce((s, d) => s + d.weight, 0);
  const sww = deviations.reduce((s, d) => s + d.weight * d.weight, 0);
  if (deviations.length === 0 || !(sw > 0)) return { mean: 0, weight: 0 };
  const mean = deviations.reduce((s, d) => s + d.weight * d.e, 0) / sw;
  const effective = (sw * sw) / sww;
  const weight = sd ** 2 / (sd ** 2 + spread ** 2 / effective);
  return { mean, weight: Number.isFinite(weight) ? weight : 0 };
}

/**
 * The street and building effects around `center` (the comparables' log price per m²): see the
 * comment at the top. Offers are already adjusted to the property (time, hedonics, postcode).
 */
export function addressShift(
  offers: readonly AddressOffer[],
  center: number,
  variation: AddressVariation,
): AddressShift {
  const deviation = (o: AddressOffer) => ({
    e: Math.min(CLIP, Math.max(-CLIP, o.y - center)),
    weight: o.weight,
  });
  const street = shrunkMean(offers.map(deviation), variation.streetSd, variation.streetSpread);
  const streetShift = street.weight * street.mean;
  const inBuilding = offers.filter((o) => o.sameBuilding).map(deviation);
  const building = shrunkMean(
    inBuilding.map((d) => ({ e: d.e - streetShift, weight: d.weight })),
    variation.buildingSd,
    variation.buildingSpread,
  );
  return {
    shift: streetShift + building.weight * building.mean,
    explained:
      street.weight * variation.streetSd ** 2 + building.weight * variation.buildingSd ** 2,
    remaining:
      (inBuilding.length > 0 ? variation.buildingSpread : variation.streetSpread) ** 2 +
      (1 - street.weight) * variation.streetSd ** 2 +
      (1 - building.weight) * variation.buildingSd ** 2,
    streetOffers: offers.length,
    buildingOffers: inBuilding.length,
  };
}
