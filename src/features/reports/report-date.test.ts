import { describe, expect, it } from 'vitest';
import { defaultReportDate } from './report-date.js';

describe('defaultReportDate', () => {
  it('is a year before today, the last of February for a leap day', () => {
    expect(defaultReportDate('2026-06-15', '2015-01-01')).toBe('2025-06-15');
    expect(defaultReportDate('2028-02-29', undefined)).toBe('2027-02-28');
  });

  it('is the first offer’s day where the market data starts later, never after today', () => {
    expect(defaultReportDate('2026-06-15', '2026-01-10')).toBe('2026-01-10');
    expect(defaultReportDate('2026-06-15', '2026-07-01')).toBe('2026-06-15');
  });
});
