import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentiles } from './order-statistics.js';

/** The definition: sort, then interpolate at p·(n−1). */
function bySorting(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const pos = p * (sorted.length - 1);
  const lo = sorted[Math.floor(pos)] as number;
  const hi = sorted[Math.ceil(pos)] as number;
  return lo + (hi - lo) * (pos - Math.floor(pos));
}

describe('percentiles', () => {
  it('equal the sorted definition, by selection (few) and by sorting (many)', () => {
    fc.assert(
      fc.property(
        // Small integers give many ties, the hard case for partitioning.
        fc.array(
          fc.oneof(
            fc.integer({ min: -5, max: 5 }),
            fc.double({ noNaN: true, min: -1e9, max: 1e9 }),
          ),
          {
            minLength: 1,
            maxLength: 300,
          },
        ),
        fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 12 }),
        (values, ranks) => {
          const ps = ranks.map((r) => r / 100);
          const found = percentiles(Float64Array.from(values), ps);
          ps.forEach((p, i) => expect(found[i]).toBe(bySorting(values, p)));
        },
      ),
    );
  });

  it('of one value is that value; of none, NaN', () => {
    expect(percentiles(Float64Array.from([7]), [0, 0.5, 1])).toEqual([7, 7, 7]);
    expect(percentiles(new Float64Array(0), [0.5])).toEqual([NaN]);
  });
});
