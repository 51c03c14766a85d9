import type { DuckDBConnection } from '@duckdb/node-api';
import { isCountryCode } from '../market/countries.js';
import { queryRows, type Row } from '../market/duck.js';
import { silentProgress, type Progress } from '../market/progress.js';
import { InsufficientDataError } from './errors.js';
import { priceOfRowSql } from '../market/queries/offer-columns.js';
import { snapshotCache } from './snapshot-cache.js';
import { CONFIDENCES, type Confidence, type DealType, type PropertyToValue } from './types.js';
import { estimateDeal, type DetailedEstimate } from './value-property.js';

/** One held-out offer: its observed price, the truth when recorded, and the model's estimate. */
export interface BacktestCase {
  observed: number;
  truth: number | null;
  value: number;
  lower: number;
  upper: number;
  confidence: Confidence;
  /** Whether offers in the same building or street moved the value (address-effects.ts). */
  address: AddressUse;
  /**
   * The offer repeats one published before the split: same building, living area and price (a
   * listing posted again). Such a case is easy for any estimate that knows the building.
   */
  repeat: boolean;
}

export const ADDRESS_USES = ['building', 'street', 'none'] as const;
export type AddressUse = (typeof ADDRESS_USES)[number];

function addressUseOf(estimate: DetailedEstimate): AddressUse {
  if (!estimate.address) return 'none';
  return estimate.address.buildingOffers > 0 ? 'building' : 'street';
}

export interface Metrics {
  count: number;
  /** Median absolute percentage error vs the truth (recorded, else the observed price). */
  mdape: number;
  within10: number;
  within20: number;
  /** Share of ranges holding the truth. */
  coverage: number;
}

export interface BacktestReport {
  sampled: number;
  valued: number;
  insufficient: number;
  truth: 'recorded' | 'observed';
  overall: Metrics;
  byConfidence: Record<Confidence, Metrics>;
  /** By whether offers in the property's building or street moved the value. */
  byAddress: Record<AddressUse, Metrics>;
  /** Without the held-out offers that repeat an earlier one (`repeat`); null when none does. */
  withoutRepeats: Metrics | null;
  /** MdAPE of the recorded true values vs the observed prices (demo data only). */
  floor: number | null;
  /** MdAPE vs the observed prices, whatever the truth. */
  mdapeObserved: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

const ape = (estimate: number, truth: number) => Math.abs(estimate - truth) / truth;

export function metricsOf(cases: readonly BacktestCase[]): Metrics {
  const truthOf = (c: BacktestCase) => c.truth ?? c.observed;
  const errors = cases.map((c) => ape(c.value, truthOf(c)));
  const share = (test: (c: BacktestCase, i: number) => boolean) =>
    cases.length === 0 ? NaN : cases.filter(test).length / cases.length;
  return {
    count: cases.length,
    mdape: median(errors),
    within10: share((_, i) => (errors[i] ?? 1) <= 0.1),
    within20: share((_, i) => (errors[i] ?? 1) <= 0.2),
    coverage: share((c) => c.lower <= truthOf(c) && truthOf(c) <= c.upper),
  };
}

export function reportOf(cases: readonly BacktestCase[], sampled: number): BacktestReport {
  const recorded = cases.length > 0 && cases.every((c) => c.truth !== null);
  const byConfidence = Object.fromEntries(
    CONFIDENCES.map((k) => [k, metricsOf(cases.filter((c) => c.confidence === k))]),
  ) as Record<Confidence, Metrics>;
  return {
    sampled,
    valued: cases.length,
    insufficient: sampled - cases.length,
    truth: recorded ? 'recorded' : 'observed',
    overall: metricsOf(cases),
    byConfidence,
    byAddress: Object.fromEntries(
      ADDRESS_USES.map((k) => [k, metricsOf(cases.filter((c) => c.address === k))]),
    ) as Record<AddressUse, Metrics>,
    withoutRepeats: cases.some((c) => c.repeat) ? metricsOf(cases.filter((c) => !c.repeat)) : null,
    floor: recorded ? median(cases.map((c) => ape(c.truth ?? 0, c.observed))) : null,
    mdapeObserved: median(cases.map((c) => ape(c.value, c.observed))),
  };
}

export interface BacktestOptions {
  country?: string;
  deal?: DealType;
  /** Offers to value, a seeded sample (default: every held-out offer). */
  sample?: number;
  seed: number;
  /** Offers published before this day only serve as data (default: each offer's own day). */
  splitDate?: string;
  progress?: Progress;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const dayBefore = (date: string) => isoDay(new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000));

/** The held-out offer as a property to value. */
function propertyOf(r: Row, centroid: { latitude: number; longitude: number } | undefined) {
  const cc = String(r.country_code);
  if (!isCountryCode(cc)) return undefined;
  const exact = r.latitude !== null && r.longitude !== null;
  const point = exact ? { latitude: Number(r.latitude), longitude: Number(r.longitude) } : centroid;
  if (!point) return undefined;
  const property: PropertyToValue = {
    countryCode: cc,
    propertyType: r.property_type === 'house' ? 'house' : 'apartment',
    ...point,
    locationPrecision: exact ? 'exact' : 'postcode',
    livingArea: Number(r.living_area),
  };
  if (r.postal_code !== null) property.postalCode = String(r.postal_code);
  if (r.number_of_rooms !== null) property.numberOfRooms = Number(r.number_of_rooms);
  if (r.building_year !== null) property.buildingYear = Number(r.building_year);
  if (r.is_new !== null) property.isNew = Boolean(r.is_new);
  if (r.floor_number !== null) property.floorNumber = Number(r.floor_number);
  // A house's land as the training offers count it: none where the row states none (model-sums
  // counts such a house as one without land; where a region measures no land, it is unused).
  // Right where an empty land means none, as in DVF sales; listings that leave land out would
  // be valued here as houses without land, where the service takes them as unstated.
  if (property.propertyType === 'house')
    property.landArea = r.land_area === null || r.land_area === undefined ? 0 : Number(r.land_area);
  // Undefined where the snapshot predates the address columns.
  if (typeof r.street === 'string') property.street = r.street;
  if (typeof r.house_number === 'string') property.houseNumber = r.house_number;
  const flags = {
    isOldBuilding: r.is_old_building,
    isFurnished: r.is_furnished,
    isSubsidized: r.is_subsidized,
    hasBalcony: r.has_balcony,
    hasTerrace: r.has_terrace,
  };
  for (const [key, value] of Object.entries(flags))
    if (value !== null && value !== undefined) Object.assign(property, { [key]: Boolean(value) });
  return property;
}

/** A held-out offer: its row, its observed price and the model's estimate (null if none). */
export interface HeldOut {
  row: Row;
  observed: number;
  estimate: BacktestCase | null;
  /** The model's whole estimate, for analyses beyond the report. */
  detail?: DetailedEstimate;
}

/**
 * Values a seeded sample of offers, each only from offers published before it (or before the
 * split date), and measures the errors against the recorded truth (demo data) or the observed
 * price.
 */
export async function runBacktest(
  db: DuckDBConnection,
  options: BacktestOptions,
): Promise<BacktestReport> {
  const heldOut = await valueHeldOut(db, options);
  return reportOf(
    heldOut.flatMap((h) => (h.estimate ? [h.estimate] : [])),
    heldOut.length,
  );
}

/** The held-out offers of a backtest (sampled, in a stable order) with the model's estimates. */
export async function valueHeldOut(
  db: DuckDBConnection,
  options: BacktestOptions,
): Promise<HeldOut[]> {
  const progress = options.progress ?? silentProgress;
  const filters = ['living_area between 10 and 2000', 'coalesce(sale_price, rent_gross) > 0'];
  const params: Record<string, string> = {};
  if (options.country) {
    filters.push('o.country_code = $cc');
    params.cc = options.country;
  }
  if (options.deal) {
    filters.push('deal_type = $deal');
    params.deal = options.deal;
  }
  if (options.splitDate) {
    filters.push('start_date >= $split');
    params.split = options.splitDate;
  } else {
    // The first year has no history to value from.
    filters.push('start_date >= (select min(start_date) from offers) + interval 1 year');
  }
  const sampling =
    options.sample === undefined
      ? ''
      : `using sample reservoir(${Math.floor(options.sample)} rows) repeatable (${Math.floor(options.seed)})`;
  // Only a split backtest runs on a freshly imported file, whose offers have the address keys.
  const repeat = options.splitDate
    ? `exists (select 1 from offers e where e.start_date < $split
         and e.country_code = o.country_code and e.deal_type = o.deal_type
         and e.division_level100 = o.division_level100 and e.street_key = o.street_key
         and e.house_key = o.house_key and e.living_area = o.living_area
         and ${priceOfRowSql('e')} = ${priceOfRowSql('o')})`
    : 'false';
  const sample = await queryRows(
    db,
    `select * from (
       select o.*, t.true_value, ${repeat} as repeats_earlier
       from offers o left join offer_truth t using (country_code, id)
       where ${filters.join(' and ')}
     ) ${sampling}
     order by country_code, id`,
    params,
  );
  const cache = await snapshotCache(db);
  const heldOut: HeldOut[] = [];
  progress.start('valuing held-out offers', sample.length);
  for (const [i, r] of sample.entries()) {
    const date = isoDay(new Date(String(r.start_date)));
    const pc = cache.postcodes
      .get(String(r.country_code))
      ?.find((p) => p.id === String(r.division_level100));
    const property = propertyOf(r, pc);
    const deal: DealType = r.deal_type === 'rent' ? 'rent' : 'sale';
    const observed = Number(deal === 'sale' ? r.sale_price : r.rent_gross);
    const held: HeldOut = { row: r, observed, estimate: null };
    heldOut.push(held);
    if (!property || !(observed > 0)) continue;
    try {
      const estimate = await estimateDeal(db, property, deal, date, {
        until: dayBefore(options.splitDate ?? date),
      });
      held.estimate = {
        observed,
        truth: r.true_value === null ? null : Number(r.true_value),
        value: estimate.value,
        lower: estimate.range.lower,
        upper: estimate.range.upper,
        confidence: estimate.confidence,
        address: addressUseOf(estimate),
        repeat: r.repeats_earlier === true,
      };
      held.detail = estimate;
    } catch (error) {
      if (!(error instanceof InsufficientDataError)) throw error;
    }
    if (i % 50 === 0) progress.update(i);
  }
  progress.update(sample.length);
  progress.stop();
  return heldOut;
}
