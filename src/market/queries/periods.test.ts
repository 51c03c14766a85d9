import { describe, expect, it } from 'vitest';
import { periodCount, periodsBetween } from './periods.js';

describe('periods of a start-date grouping', () => {
  it('names each period with its four-digit year, also before the year 1000', () => {
    expect(periodsBetween('0999-11', '1000-02', 'month').map((p) => p.id)).toEqual([
      '0999-11',
      '0999-12',
      '1000-01',
      '1000-02',
    ]);
    expect(periodsBetween('0999-11', '1000-02', 'quarter')).toEqual([
      { id: '0999-Q4', start: '0999-10-01' },
      { id: '1000-Q1', start: '1000-01-01' },
    ]);
    expect(periodsBetween('0000-01', '0002-12', 'year').map((p) => p.id)).toEqual([
      '0000',
      '0001',
      '0002',
    ]);
    expect(periodsBetween('2024-02', '2024-08', 'quarter').map((p) => p.id)).toEqual([
      '2024-Q1',
      '2024-Q2',
      '2024-Q3',
    ]);
  });

  it('counts the periods a range touches, partial ones included', () => {
    expect(periodCount('2024-03', '2024-04', 'quarter')).toBe(2);
    expect(periodCount('2023-12', '2024-01', 'year')).toBe(2);
    expect(periodCount('2024-01', '2073-12', 'month')).toBe(600);
  });
});
