import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT } from './features.js';
import { fitHedonic, indexAt, type HedonicFit, type MonthStats } from './hedonic.js';
import {
  choleskySolve,
  countryEffects,
  pooledIndex,
  type CountryPool,
  type MonthEffect,
} from './pooled-index.js';

const K = FEATURE_COUNT;

/** One offer: its region, month, y and the value of feature 0 (the other features are 0). */
interface Offer {
  region: number;
  month: number;
  y: number;
  x: number;
}

/** The pool as the snapshot tables hold it, summed here from single offers. */
function poolOf(offers: readonly Offer[]): CountryPool {
  const cells = new Map<string, Offer[]>();
  for (const o of offers) {
    const key = `${String(o.region).padStart(4, '0')}|${String(o.month).padStart(6, '0')}`;
    cells.set(key, [...(cells.get(key) ?? []), o]);
  }
  const keys = [...cells.keys()].sort();
  const sums = keys.map((key) => {
    const list = cells.get(key) ?? [];
    const n = list.length;
    const sy = list.reduce((s, o) => s + o.y, 0);
    const sx = list.reduce((s, o) => s + o.x, 0);
    const sxx = list.reduce((s, o) => s + o.x * o.x, 0);
    const sxy = list.reduce((s, o) => s + o.x * o.y, 0);
    return { region: list[0]?.region ?? 0, month: list[0]?.month ?? 0, n, sy, sx, sxx, sxy };
  });
  const months = [...new Set(sums.map((s) => s.month))].sort((a, b) => a - b);
  const within: MonthStats[] = months.map((month) => {
    const of = sums.filter((s) => s.month === month);
    const sumXX = new Array<number>(K * K).fill(0);
    sumXX[0] = of.reduce((t, s) => t + s.sxx - (s.sx * s.sx) / s.n, 0);
    const sumXY = new Array<number>(K).fill(0);
    sumXY[0] = of.reduce((t, s) => t + s.sxy - (s.sx * s.sy) / s.n, 0);
    return { month, n: 1, sumY: 0, sumX: new Array<number>(K).fill(0), sumXX, sumXY };
  });
  const sumX = new Float64Array(sums.length * K);
  sums.forEach((s, i) => (sumX[i * K] = s.sx));
  return {
    within,
    cells: {
      region: Int32Array.from(sums, (s) => s.region),
      month: Int32Array.from(sums, (s) => s.month),
      n: Float64Array.from(sums, (s) => s.n),
      sumY: Float64Array.from(sums, (s) => s.sy),
      sumX,
    },
  };
}

/** Month effects relative to the first month's. */
function relative(effects: readonly MonthEffect[]): number[] {
  const first = effects[0]?.effect ?? 0;
  return effects.map((e) => e.effect - first);
}

describe('choleskySolve', () => {
  it('solves a 3×3 system (checked by multiplying back)', () => {
    const a = [4, 2, 0.4, 2, 5, 1, 0.4, 1, 3];
    const b = [1, 2, 3];
    const x = choleskySolve(Float64Array.from(a), Float64Array.from(b), 3);
    if (!x) throw new Error('not solved');
    for (let i = 0; i < 3; i++) {
      const row = [0, 1, 2].reduce((s, j) => s + (a[i * 3 + j] ?? 0) * (x[j] ?? 0), 0);
      expect(row).toBeCloseTo(b[i] ?? NaN, 12);
    }
  });

  it('says so for a matrix that is not positive definite', () => {
    const singular = Float64Array.from([1, 2, 2, 4]);
    expect(choleskySolve(singular, Float64Array.from([1, 1]), 2)).toBeUndefined();
  });
});

describe('countryEffects', () => {
  // Three regions (levels 0, 0.5 and −0.3), months 0…5 with the true effects below, β = 0.2 on
  // feature 0. The dear region has offers only from month 3 on, and its offers have larger x in
  // later months: a month's plain mean would jump by the region's level and the mix.
  const truth = [0, 0.02, 0.05, 0.03, -0.01, 0.04];
  const level = [0, 0.5, -0.3];
  const offers: Offer[] = [];
  for (let region = 0; region < 3; region++)
    truth.forEach((effect, month) => {
      if (region === 1 && month < 3) return;
      for (let i = 0; i < 400; i++) {
        const x = (i % 5) + (region === 1 ? month : 0);
        offers.push({ region, month, x, y: (level[region] ?? 0) + effect + 0.2 * x });
      }
    });

  it('recovers the month effects net of the regions and the characteristics', () => {
    const effects = countryEffects(poolOf(offers), 100);
    expect(effects.map((e) => e.month)).toEqual([0, 1, 2, 3, 4, 5]);
    // The ridge of 5 offers against 6,000 of variation leaves β 0.2 × 0.9993.
    relative(effects).forEach((e, i) => {
      expect(e).toBeCloseTo(truth[i] ?? NaN, 3);
    });
    expect(effects.map((e) => e.n)).toEqual([800, 800, 800, 1200, 1200, 1200]);
    // A plain mean per month would not: the dear region's arrival looks like a rise.
    const plainMean = (m: number) => {
      const of = offers.filter((o) => o.month === m);
      return of.reduce((s, o) => s + o.y - 0.2 * o.x, 0) / of.length;
    };
    expect(plainMean(3) - plainMean(0)).toBeGreaterThan(0.15);
  });

  it('lends no shape where no region links two periods', () => {
    // Region 0 in months 0–2 only, region 2 in months 3–5 only: the two periods' levels against
    // each other are unknown, and an index smoothed across months 2–3 would mix them.
    const apart = offers.filter((o) =>
      o.region === 0 ? o.month < 3 : o.region === 2 && o.month >= 3,
    );
    expect(countryEffects(poolOf(apart), 100)).toEqual([]);
    // One region with offers in both periods links them.
    const linked = [...apart, ...offers.filter((o) => o.region === 0 && o.month === 3)];
    expect(countryEffects(poolOf(linked), 100)).toHaveLength(6);
  });

  it('sees nothing of the months from the given one on', () => {
    // Later months with another β and noise: the effects before month 4 must be the same as
    // without them, to rounding.
    const later: Offer[] = [];
    for (let region = 0; region < 3; region++)
      for (let month = 4; month < 9; month++)
        for (let i = 0; i < 50; i++) {
          const x = (i % 7) + region;
          later.push({ region, month, x, y: 0.9 * x + Math.sin(i * 7 + month) });
        }
    // Early offers whose mix of x shifts from month to month in one region only: a β taken from
    // the later months would move that region's months against the other's.
    const early: Offer[] = [];
    for (const region of [0, 2])
      for (let month = 0; month < 4; month++)
        for (let i = 0; i < 100; i++) {
          const x = (i % 5) + (region === 0 ? month : 0);
          early.push({ region, month, x, y: (level[region] ?? 0) + (truth[month] ?? 0) + 0.2 * x });
        }
    const withLater = countryEffects(poolOf([...early, ...later]), 4);
    const without = countryEffects(poolOf(early), 4);
    expect(withLater.map((e) => e.month)).toEqual([0, 1, 2, 3]);
    withLater.forEach((e, i) => {
      expect(e.effect).toBeCloseTo(without[i]?.effect ?? NaN, 12);
    });
  });

  it('uses only the months before the given one', () => {
    const before = countryEffects(poolOf(offers), 3);
    expect(before.map((e) => e.month)).toEqual([0, 1, 2]);
    relative(before).forEach((e, i) => {
      expect(e).toBeCloseTo(truth[i] ?? NaN, 3);
    });
  });
});

/** A fit whose month effects are the given ones (β 0). */
function fitOf(months: readonly MonthEffect[]): HedonicFit {
  return { beta: new Array<number>(K).fill(0), months: [...months] };
}

describe('pooledIndex', () => {
  const months = Array.from({ length: 48 }, (_, i) => 24_000 + i);
  // A country whose prices rose 1% a month for two years, then fell 1% a month.
  const countryShape = (m: number) =>
    m - 24_000 < 24 ? 0.01 * (m - 24_000) : 0.48 - 0.01 * (m - 24_000);
  const country: MonthEffect[] = months.map((month) => ({
    month,
    n: 2_000,
    effect: countryShape(month),
  }));

  it('is the region’s own index without the country’s effects', () => {
    const own = months.map((month, i) => ({ month, n: 30, effect: 0.001 * i * i }));
    const index = pooledIndex(fitOf(own), undefined);
    for (const m of [24_000, 24_030, 24_047, 24_060]) expect(index(m)).toBe(indexAt(own, m));
  });

  it('is the region’s own index where the region is the whole country', () => {
    const own = months.map((month, i) => ({ month, n: 50, effect: 3 + 0.02 * Math.sin(i) }));
    const alone = own.map((m) => ({ ...m, effect: m.effect - 3.1 }));
    const index = pooledIndex(fitOf(own), alone);
    for (const m of [24_000, 24_013, 24_047, 24_060])
      expect(index(m)).toBeCloseTo(indexAt(own, m) ?? NaN, 12);
  });

  it('follows the country’s turn in a thin region, which its own index smooths away', () => {
    // 10 offers a month at the country's prices + 0.3, ±0.03 of noise.
    const own = months.map((month, i) => ({
      month,
      n: 10,
      effect: countryShape(month) + 0.3 + 0.03 * (i % 2 ? 1 : -1),
    }));
    const pooled = pooledIndex(fitOf(own), country);
    const turn = 24_024;
    const truth = countryShape(turn) + 0.3;
    expect(Math.abs((pooled(turn) ?? NaN) - truth)).toBeLessThan(0.02);
    // 300 offers take 30 months: its own local linear fit cuts the peak.
    expect(truth - (indexAt(own, turn) ?? NaN)).toBeGreaterThan(0.05);
  });

  it('ends the deviation where the country’s index ends', () => {
    // The country's last month holds 10 offers (under a quarter of its usual 2,000), 0.5 off
    // its level: its index ends the month before, and so must the region's deviation, or
    // that month's 0.5 would reach the region with its sign reversed.
    const thinEnd = [...country, { month: 24_048, n: 10, effect: countryShape(24_047) + 0.5 }];
    const own = [...months, 24_048].map((month) => ({
      month,
      n: 400,
      effect: countryShape(Math.min(month, 24_047)) + 0.1,
    }));
    const pooled = pooledIndex(fitOf(own), thinEnd);
    expect(pooled(24_048)).toBeCloseTo((indexAt(thinEnd, 24_048) ?? NaN) + 0.1, 9);
  });

  it('moves with the country after the region’s last month, never past the country’s', () => {
    const own = months.slice(0, 40).map((month) => ({
      month,
      n: 10,
      effect: countryShape(month) + 0.3,
    }));
    const pooled = pooledIndex(fitOf(own), country);
    expect(pooled(24_047)).toBeCloseTo(countryShape(24_047) + 0.3, 6);
    expect(pooled(24_060)).toBeCloseTo(countryShape(24_047) + 0.3, 6);
    // On its own the index stays at its last month's level.
    expect(indexAt(own, 24_047)).toBeCloseTo(indexAt(own, 24_039) ?? NaN, 12);
  });

  it('rests on the fit’s months: the hedonic fit gives the region’s effects', () => {
    const stats: MonthStats[] = months.map((month) => ({
      month,
      n: 2,
      sumY: 2 * (countryShape(month) + 0.1),
      sumX: new Array<number>(K).fill(0),
      sumXX: new Array<number>(K * K).fill(0),
      sumXY: new Array<number>(K).fill(0),
    }));
    const pooled = pooledIndex(fitHedonic(stats, K), country);
    // The country's smoothed index (which rounds the peak off) plus the constant deviation.
    for (const m of [24_010, 24_024, 24_047])
      expect(pooled(m)).toBeCloseTo((indexAt(country, m) ?? NaN) + 0.1, 9);
  });
});
