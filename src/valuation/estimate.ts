import type { Confidence } from './types.js';

/** A comparable offer, already adjusted to the property and the valuation date. */
export interface AdjustedComparable {
  /** Adjusted log price per m². */
  y: number;
  weight: number;
  /**
   * The regional model's log price per m² for the property as this comparable's adjustment sees
   * it: `y` minus the comparable's residual around the model. Undefined where the model has no
   * index for the comparable's month.
   */
  model?: number;
}

export interface CentralEstimate {
  /** Log price per m² of the property at the date. */
  center: number;
  /** Robust spread of the adjusted comparables (log scale). */
  spread: number;
  /** Effective number of comparables, (Σw)² / Σw². */
  effectiveCount: number;
  used: number;
  /** Weight of the comparables' own average against the model's value (1: comparables only). */
  comparablesWeight: number;
}

/** Comparables further than this many robust standard deviations from the median are dropped. */
const OUTLIER_SDS = 3;
/** A floor for the spread: even identical comparables do not make a value exact. */
const MIN_SPREAD = 0.03;

function weightedMedian(items: readonly AdjustedComparable[]): number {
  const sorted = [...items].sort((a, b) => a.y - b.y);
  const total = sorted.reduce((s, c) => s + c.weight, 0);
  let run = 0;
  for (const c of sorted) {
    run += c.weight;
    if (run >= total / 2) return c.y;
  }
  return sorted[sorted.length - 1]?.y ?? 0;
}

/**
 * The value from the adjusted comparables after dropping outliers (beyond 3 robust SDs of the
 * weighted median): the model's value plus the comparables' weighted mean residual around it,
 * shrunk by τ² / (τ² + spread² / n_eff), τ = `localSd` (local-variance.ts: how far a place's
 * surroundings typically lie from the model, measured per region); the plain weighted mean where the model
 * has no value. The spread is robust (1.4826 × weighted median absolute deviation).
 */
export function centralEstimate(
  items: readonly AdjustedComparable[],
  localSd: number,
): CentralEstimate {
  if (items.length === 0) throw new Error('no comparables');
  const median = weightedMedian(items);
  const mad = weightedMedian(items.map((c) => ({ y: Math.abs(c.y - median), weight: c.weight })));
  const robustSd = Math.max(1.4826 * mad, MIN_SPREAD);
  const kept = items.filter((c) => Math.abs(c.y - median) <= OUTLIER_SDS * robustSd);
  const sw = kept.reduce((s, c) => s + c.weight, 0);
  const sww = kept.reduce((s, c) => s + c.weight * c.weight, 0);
  const mean = kept.reduce((s, c) => s + c.weight * c.y, 0) / sw;
  const effectiveCount = (sw * sw) / sww;
  const estimate = { spread: robustSd, effectiveCount, used: kept.length };
  if (!kept.every((c) => c.model !== undefined))
    return { center: mean, ...estimate, comparablesWeight: 1 };
  const model = kept.reduce((s, c) => s + c.weight * (c.model ?? 0), 0) / sw;
  const weight = localSd ** 2 / (localSd ** 2 + robustSd ** 2 / effectiveCount);
  return { center: model + weight * (mean - model), ...estimate, comparablesWeight: weight };
}

/**
 * Error model of the value, in log terms, calibrated by the backtest (README "Valuation model"):
 * the standard error of the comparables' mean as far as the value rests on it, a floor for
 * index and hedonic error, a bias term per widening step (where the search had to widen, the
 * region's model and the comparables both describe the property less well), and most of the
 * comparables' spread beyond the listing noise.
 */
export const ERROR_MODEL = {
  /** Multiplies the standard error of the mean: comparables share location and time errors. */
  meanErrorFactor: 1.0,
  floor: 0.015,
  /**
   * Per widening step 0..6 (see comparables.ts), each calibrated on its own. The municipality
   * step (5) is where thin regions end up, so it is the least certain; the last resorts (6) mostly
   * serve sparse corners of regions the model knows well.
   */
  wideningBias: [0.015, 0.01, 0.02, 0.03, 0.05, 0.11, 0.055],
  /**
   * Share of the comparables' spread beyond the listing noise that counts as the property's own
   * difference from them; the rest is the adjustments' error, which their mean (and the bias)
   * already carries. Against one observed price (real data) the price's own scatter around its
   * neighbours is part of the error: Paris and Vienna ranges hold it 66.3% and 70.2% of the time
   * at 0.8 (2026-11-26, with each one's single-offer floor). Against a recorded true value (demo data) it is not, and most of the spread beyond
   * the noise is the adjustments' error: at 0.8 the demo's `medium` ranges held the truth 84–86%
   * of the time; 0.3 gives 68–81%, and 66–70% overall (README "Valuation model").
   */
  heterogeneityShare: { observed: 0.8, recorded: 0.3 },
} as const;

/**
 * The forecast standard deviation of the log value: the uncertainty of the estimate plus the
 * part of the comparables' spread that is real differences between properties rather than
 * listing noise (`listingNoise`: the known noise of asking prices around true values, measured
 * only where the truth is recorded, i.e. demo data; 0 elsewhere, so all of the spread counts).
 *
 * Where no listing noise is known, the value is compared with a single observed price, whose own
 * scatter around its neighbours is part of the error; `saleSpread`, measured over the region's
 * offers (local-variance.ts; for offers without points, around their streets: value-property.ts
 * `addressSaleSpread`), is then a floor for that part: the comparables' robust spread, a dozen
 * or so offers, understates it where prices scatter widely (Paris sales: 0.17 against 0.19 over
 * the whole city, and ranges held the truth 58% of the time instead of 68%).
 */
export function forecastSd(
  estimate: CentralEstimate,
  widening: number,
  listingNoise: number,
  saleSpread?: number,
  address?: { explained: number; remaining: number },
) {
  const bias =
    ERROR_MODEL.wideningBias[Math.min(widening, ERROR_MODEL.wideningBias.length - 1)] ?? 0.1;
  const meanError =
    (ERROR_MODEL.meanErrorFactor * estimate.comparablesWeight * estimate.spread) /
    Math.sqrt(estimate.effectiveCount);
  const share = ERROR_MODEL.heterogeneityShare[listingNoise > 0 ? 'recorded' : 'observed'];
  const spreadPart = share * Math.max(0, estimate.spread ** 2 - listingNoise ** 2);
  const floor = listingNoise > 0 || saleSpread === undefined ? 0 : saleSpread ** 2;
  // What the street and building explain of the property's own difference is no longer
  // uncertain, down to what they leave unexplained.
  const own = address
    ? Math.max(spreadPart - address.explained, Math.min(spreadPart, address.remaining))
    : spreadPart;
  const heterogeneity = Math.max(own, floor);
  return Math.sqrt(meanError ** 2 + ERROR_MODEL.floor ** 2 + bias ** 2 + heterogeneity);
}

/**
 * Confidence classes by the forecast standard deviation: `good` means the value is expected
 * within about ±10% two times in three, `medium` within ±20%, `poor` not even that.
 */
export const CONFIDENCE_LIMITS = { good: 0.1, medium: 0.2 } as const;

export function confidenceOf(sd: number): Confidence {
  if (sd <= CONFIDENCE_LIMITS.good) return 'good';
  if (sd <= CONFIDENCE_LIMITS.medium) return 'medium';
  return 'poor';
}

/** The range exp(±sd) around the value: one forecast standard deviation on the log scale. */
export function rangeOf(value: number, sd: number): { lower: number; upper: number } {
  return { lower: value * Math.exp(-sd), upper: value * Math.exp(sd) };
}
