import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT } from './features.js';
import type { MonthStats } from './hedonic.js';
import type { Place, PostcodeMonth } from './postcode-effects.js';
import { fitRegionalModel, type RegionalData } from './regional-model.js';

const zeros = (n: number) => new Array<number>(n).fill(0);

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

  it('nets the month effects of the postcode levels of their offers', () => {
    const data: RegionalData = {
      stats: { sale: monthStats(sale), rent: [] },
      postcodes: { sale, rent: [] },
      places,
    };
    const model = fitRegionalModel(data, 'sale', 113);
    const effect = (m: number) => model.fit.months.find((e) => e.month === m)?.effect ?? NaN;
    // The raw mean of month 112 is 0.3 above the others (80% of its offers in P, not 20%);
    // netted of the levels, most of that jump is gone.
    expect(effect(112) - effect(111)).toBeLessThan(0.1);
    expect(effect(112) - effect(111)).toBeGreaterThan(-0.05);
    expect(model.level('P') - model.level('Q')).toBeGreaterThan(0.45);
    expect(model.level('P') - model.level('Q')).toBeLessThan(0.5);
  });

  it("uses the other deal type's offers of a postcode at half weight for its level", () => {
    // Sales only in Q; rents in P and Q, P's 0.4 dearer.
    const sales = Array.from({ length: 12 }, (_, i) => cell('Q', 100 + i, 20, 1));
    const rents = Array.from({ length: 12 }, (_, i) => [
      cell('P', 100 + i, 5, -2.6),
      cell('Q', 100 + i, 5, -3),
    ]).flat();
    const data: RegionalData = {
      stats: { sale: monthStats(sales), rent: monthStats(rents) },
      postcodes: { sale: sales, rent: rents },
      places,
    };
    const sale = fitRegionalModel(data, 'sale', 112);
    // P's rent residuals: +0.2 over 60 offers, counted as 30 offers with residual sum 6.
    expect(sale.level('P')).toBeCloseTo(6 / (30 + 5), 6);
    const rent = fitRegionalModel(data, 'rent', 112);
    expect(rent.level('P')).toBeGreaterThan(sale.level('P'));
  });
});
