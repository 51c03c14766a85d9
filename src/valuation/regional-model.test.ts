import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT } from './features.js';
import type { HedonicFit, MonthStats } from './hedonic.js';
import type { CountryFit } from './pooled-index.js';
import type { Place, ResidualSum } from './postcode-effects.js';
import { fitRegionalModel, type RegionalSource } from './regional-model.js';
import type { DealType } from './types.js';

const zeros = (n: number) => new Array<number>(n).fill(0);

/** Sums of one postcode's offers in one month, as the snapshot stores them. */
interface PostcodeMonth {
  postcode: string;
  month: number;
  n: number;
  sumY: number;
  sumX: number[];
}

/** The months of `fit` before `before`, by month. */
function effectsBefore(fit: HedonicFit, before: number): Map<number, number> {
  return new Map(fit.months.filter((m) => m.month < before).map((m) => [m.month, m.effect]));
}

/**
 * A source over postcode months held in memory, summing as model-sums.ts does in SQL (that
 * module's tests compare its SQL with the same plain computation).
 */
function memorySource(
  cells: Record<DealType, readonly PostcodeMonth[]>,
  stats: Record<DealType, readonly MonthStats[]>,
  country?: CountryFit,
): RegionalSource {
  return {
    stats,
    places,
    country: () => Promise.resolve(country),
    residuals: (deal, fit, before) => {
      const effects = effectsBefore(fit, before);
      const sums = new Map<string, ResidualSum>();
      for (const c of cells[deal]) {
        const effect = effects.get(c.month);
        if (effect === undefined) continue;
        const sum = sums.get(c.postcode) ?? { residual: 0, n: 0 };
        sum.residual +=
          c.sumY - c.n * effect - fit.beta.reduce((t, b, i) => t + b * (c.sumX[i] ?? 0), 0);
        sum.n += c.n;
        sums.set(c.postcode, sum);
      }
      return Promise.resolve(sums);
    },
  };
}

/** Offers without characteristics (all features 0): only months and postcodes matter. */
function cell(postcode: string, month: number, n: number, y: number): PostcodeMonth {
  return { postcode, month, n, sumY: n * y, sumX: zeros(FEATURE_COUNT) };
}

function monthStats(cells: readonly PostcodeMonth[]): MonthStats[] {
  const byMonth = new Map<number, MonthStats>();
  for (const c of cells) {
    const s = byMonth.get(c.month) ?? {
      month: c.month,
      n: 0,
      sumY: 0,
      sumX: zeros(FEATURE_COUNT),
      sumXX: zeros(FEATURE_COUNT * FEATURE_COUNT),
      sumXY: zeros(FEATURE_COUNT),
    };
    s.n += c.n;
    s.sumY += c.sumY;
    byMonth.set(c.month, s);
  }
  return [...byMonth.values()].sort((a, b) => a.month - b.month);
}

// Two postcodes 50 km apart (no neighbourhood between them): P is 0.5 dearer than Q.
const places = new Map<string, Place>([
  ['P', { latitude: 48, longitude: 16 }],
  ['Q', { latitude: 48.45, longitude: 16 }],
]);

describe('fitRegionalModel', () => {
  // Prices flat at 1 (Q) and 1.5 (P); months 100–111 have most offers in Q, month 112 in P.
  const sale = Array.from({ length: 13 }, (_, i) => {
    const month = 100 + i;
    const inP = month === 112 ? 40 : 10;
    return [cell('P', month, inP, 1.5), cell('Q', month, 50 - inP, 1)];
  }).flat();

  it('fits postcode levels from the residuals around the month effects', async () => {
    const data = memorySource({ sale, rent: [] }, { sale: monthStats(sale), rent: [] });
    const model = await fitRegionalModel(data, 'sale', 113);
    const effect = (m: number) => model.fit.months.find((e) => e.month === m)?.effect ?? NaN;
    // The month effects are the months' mean log prices (all features 0): month 112, with 80%
    // of its offers in P, lies 0.3 above the others (taking it net of the postcode levels made
    // real valuations worse: docs/valuation-measurements.md).
    expect(effect(112) - effect(111)).toBeCloseTo(0.3, 9);
    expect(effect(111)).toBeCloseTo(1.1, 9);
    // Around the months' means P's residuals are +0.4 in months 100–111 and +0.1 in month 112,
    // Q's −0.1 and −0.4; each level is their mean shrunk towards the neighbourhood (none
    // within reach: towards 0) by 5 offers.
    const p = (12 * 10 * 0.4 + 40 * 0.1) / (12 * 10 + 40 + 5);
    const q = (12 * 40 * -0.1 + 10 * -0.4) / (12 * 40 + 10 + 5);
    expect(model.level('P')).toBeCloseTo(p, 9);
    expect(model.level('Q')).toBeCloseTo(q, 9);
  });

  it("rests a coefficient its offers do not measure on the country's, not on zero", async () => {
    // No offer of the region states feature 0; the country's β₀ is 0.3.
    const stats = monthStats(sale);
    const beta = zeros(FEATURE_COUNT);
    beta[0] = 0.3;
    const months = stats.map((s) => ({ month: s.month, n: 1000, effect: 0 }));
    const alone = await fitRegionalModel(
      memorySource({ sale, rent: [] }, { sale: stats, rent: [] }),
      'sale',
      113,
    );
    expect(alone.fit.beta[0]).toBe(0);
    const pooled = await fitRegionalModel(
      memorySource({ sale, rent: [] }, { sale: stats, rent: [] }, { beta, months }),
      'sale',
      113,
    );
    expect(pooled.fit.beta[0]).toBeCloseTo(0.3, 12);
  });

  it("uses the other deal type's offers of a postcode at half weight for its level", async () => {
    // Sales only in Q; rents in P and Q, P's 0.4 dearer.
    const sales = Array.from({ length: 12 }, (_, i) => cell('Q', 100 + i, 20, 1));
    const rents = Array.from({ length: 12 }, (_, i) => [
      cell('P', 100 + i, 5, -2.6),
      cell('Q', 100 + i, 5, -3),
    ]).flat();
    const data = memorySource(
      { sale: sales, rent: rents },
      { sale: monthStats(sales), rent: monthStats(rents) },
    );
    const sale = await fitRegionalModel(data, 'sale', 112);
    // P's rent residuals: +0.2 over 60 offers, counted as 30 offers with residual sum 6.
    expect(sale.level('P')).toBeCloseTo(6 / (30 + 5), 6);
    const rent = await fitRegionalModel(data, 'rent', 112);
    expect(rent.level('P')).toBeGreaterThan(sale.level('P'));
  });
});
