import { describe, expect, it } from 'vitest';
import { countTurns } from '../../../test/helpers/event-loop.js';
import { Pacer } from '../../work/pacer.js';
import { SLICE_FLAGS, SLICE_NUMBERS, type DivisionSlice } from './division-slice.js';
import type { OfferStatisticsQuery } from './offer-statistics.js';
import { sliceStatistics } from './slice-statistics.js';

/** `n` sale offers of apartments, all of one month, with prices and areas that vary. */
function sliceOf(n: number): DivisionSlice {
  const numbers = Object.fromEntries(
    SLICE_NUMBERS.map((name) => [name, new Float64Array(n).fill(NaN)]),
  ) as Record<(typeof SLICE_NUMBERS)[number], Float64Array>;
  for (let i = 0; i < n; i++) {
    numbers.sale_price[i] = 100_000 + ((i * 7919) % 1000) * 500;
    numbers.living_area[i] = 30 + ((i * 104_729) % 120);
  }
  return {
    length: n,
    runs: [{ deal: 0, kind: 0, from: 0, to: n }],
    deal: new Uint8Array(n),
    kind: new Uint8Array(n),
    month: new Int32Array(n).fill(24_300),
    flags: Object.fromEntries(
      SLICE_FLAGS.map((flag) => [flag, new Int8Array(n).fill(-1)]),
    ) as DivisionSlice['flags'],
    numbers,
    bytes: 0,
  };
}

const query: OfferStatisticsQuery = {
  selection: { countryCode: 'DE', division: { level: 6, id: '09162' } },
  statistics: [
    { type: 'percentile', metric: 'sale_price', percentileRank: 10 },
    { type: 'percentile', metric: 'sale_price_per_square_meter', percentileRank: 90 },
    { type: 'mean', metric: 'living_area' },
  ],
  grouping: {
    by: 'value',
    metric: 'living_area',
    ranges: [{ upperBound: 60 }, { lowerBound: 60 }],
  },
};

describe('sliceStatistics', () => {
  it('gives the event loop turns while it computes, and the same answer as without them', async () => {
    const slice = sliceOf(20_000);
    const counter = countTurns();
    const paced = await sliceStatistics(slice, query, new Pacer(0));
    const turnsWhilePaced = counter.turns();
    const unpaced = await sliceStatistics(slice, query, new Pacer(3_600_000));
    counter.stop();
    // A pause after each metric's sample and each metric's percentiles, in each of 2 groups.
    expect(turnsWhilePaced).toBeGreaterThanOrEqual(2 * (3 + 2));
    // Without pauses the loop did not turn at all while it computed.
    expect(counter.turns()).toBe(turnsWhilePaced);
    expect(paced).toEqual(unpaced);
    expect(paced.map((g) => g.key)).toEqual(['0', '1']);
    const all = Array.from(slice.numbers.living_area);
    expect(paced[0]?.counts.living_area).toBe(all.filter((a) => a < 60).length);
  });

  it('stops at its first pause once the deadline has passed', async () => {
    const passed = AbortSignal.abort(new Error('deadline'));
    await expect(sliceStatistics(sliceOf(100), query, new Pacer(0, passed))).rejects.toThrow(
      'deadline',
    );
  });
});
