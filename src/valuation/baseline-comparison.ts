import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows } from '../market/duck.js';
import { PRICE_COLUMN } from '../market/queries/offer-columns.js';
import { numberOrNull, textOrNull } from '../market/queries/values.js';
import { median, metricsOf, type HeldOut, type Metrics } from './backtest.js';
import { baselinesOf, type KnownOffer, type OfferToValue } from './baselines.js';
import { mdapeRatioInterval, type RatioInterval } from './ratio-interval.js';
import type { DealType } from './types.js';

/** How close the estimates of one method come to the observed prices. */
export interface Accuracy {
  count: number;
  mdape: number;
  within10: number;
  within20: number;
}

export interface BaselineComparison {
  /** Training offers the baselines rest on. */
  training: number;
  /** Held-out offers each baseline could value (of all held out, whether or not the model did). */
  valued: { postcode: number; nearest: number };
  /**
   * Cases the model and both baselines valued: each method measured on exactly these. A baseline
   * that values no held-out offer at all (kNN without coordinates) is left out (count 0).
   */
  sameCases: {
    count: number;
    model: Metrics;
    postcode: Accuracy;
    nearest: Accuracy;
    /** Model MdAPE / baseline MdAPE: below 1, the model is better. */
    ratio: { postcode: number; nearest: number };
    /**
     * Where each ratio plausibly lies, by a paired bootstrap of these cases (`null` where the
     * baseline does not apply): a ratio whose interval holds 1 does not show either better.
     */
    interval: { postcode: RatioInterval | null; nearest: RatioInterval | null };
  };
}

const errorOf = (value: number, observed: number) => Math.abs(value - observed) / observed;

function accuracyOf(pairs: readonly { value: number; observed: number }[]): Accuracy {
  const errors = pairs.map((p) => errorOf(p.value, p.observed));
  const share = (limit: number) =>
    errors.length === 0 ? NaN : errors.filter((e) => e <= limit).length / errors.length;
  return {
    count: errors.length,
    mdape: median(errors),
    within10: share(0.1),
    within20: share(0.2),
  };
}

const day = (value: unknown) => new Date(String(value)).toISOString().slice(0, 10);

/** The held-out offer as the baselines see it. */
function toValue(row: HeldOut['row']): OfferToValue {
  return {
    countryCode: String(row.country_code),
    propertyType: row.property_type === 'house' ? 'house' : 'apartment',
    date: day(row.start_date),
    livingArea: Number(row.living_area),
    postcode: textOrNull(row.division_level100),
    latitude: numberOrNull(row.latitude),
    longitude: numberOrNull(row.longitude),
  };
}

/**
 * Values the held-out offers with both baselines (postcode median × area; time-adjusted kNN-10)
 * from the offers of the deal type published before the split date, and measures the model and
 * the baselines on the cases all three could value.
 */
export async function compareWithBaselines(
  db: DuckDBConnection,
  heldOut: readonly HeldOut[],
  options: { splitDate: string; deal: DealType },
): Promise<BaselineComparison> {
  const price = PRICE_COLUMN[options.deal];
  const rows = await queryRows(
    db,
    `select id, country_code, property_type, strftime(start_date, '%Y-%m-%d') as date,
       ${price} as price, living_area, division_level100, latitude, longitude
     from offers
     where deal_type = $deal and start_date < $split and ${price} > 0 and living_area > 0`,
    { deal: options.deal, split: options.splitDate },
  );
  const training: KnownOffer[] = rows.map((r) => ({
    id: String(r.id),
    countryCode: String(r.country_code),
    propertyType: r.property_type === 'house' ? 'house' : 'apartment',
    date: String(r.date),
    price: Number(r.price),
    livingArea: Number(r.living_area),
    postcode: textOrNull(r.division_level100),
    latitude: numberOrNull(r.latitude),
    longitude: numberOrNull(r.longitude),
  }));
  const { postcode, nearest } = baselinesOf(training);
  const valued = { postcode: 0, nearest: 0 };
  const values = heldOut.map((h) => {
    if (!(h.observed > 0)) return { h, postcode: null, nearest: null };
    const offer = toValue(h.row);
    const byPostcode = postcode.value(offer);
    const byNeighbours = nearest.value(offer);
    if (byPostcode !== null) valued.postcode++;
    if (byNeighbours !== null) valued.nearest++;
    return { h, postcode: byPostcode, nearest: byNeighbours };
  });
  // A baseline that values nothing at all (no coordinates in the data) does not apply: it must
  // not empty the comparison of the others.
  const applies = (n: number) => n > 0;
  const same = values.flatMap(({ h, postcode: p, nearest: n }) =>
    h.estimate &&
    (p !== null || !applies(valued.postcode)) &&
    (n !== null || !applies(valued.nearest))
      ? [{ model: h.estimate, postcode: p, nearest: n, observed: h.observed }]
      : [],
  );
  const accuracy = (pick: (s: (typeof same)[number]) => number | null) =>
    accuracyOf(
      same.flatMap((s) => {
        const value = pick(s);
        return value === null ? [] : [{ value, observed: s.observed }];
      }),
    );
  // Everything against the observed prices, even where a true value is recorded (demo data).
  const model = metricsOf(same.map((s) => ({ ...s.model, truth: null })));
  const byPostcode = accuracy((s) => s.postcode);
  const byNeighbours = accuracy((s) => s.nearest);
  // The model against one baseline, case by case (the cases it values, which are all or none).
  const interval = (pick: (s: (typeof same)[number]) => number | null) => {
    const paired = same.flatMap((s) => {
      const value = pick(s);
      return value === null ? [] : [s];
    });
    return mdapeRatioInterval(
      paired.map((s) => errorOf(s.model.value, s.observed)),
      paired.map((s) => errorOf(pick(s) ?? NaN, s.observed)),
    );
  };
  return {
    training: training.length,
    valued,
    sameCases: {
      count: same.length,
      model,
      postcode: byPostcode,
      nearest: byNeighbours,
      ratio: {
        postcode: model.mdape / byPostcode.mdape,
        nearest: model.mdape / byNeighbours.mdape,
      },
      interval: { postcode: interval((s) => s.postcode), nearest: interval((s) => s.nearest) },
    },
  };
}
