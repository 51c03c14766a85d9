import { monthIndex } from '../../dates.js';
export const PERIODS = ['month', 'quarter', 'year'] as const;
export type Period = (typeof PERIODS)[number];

export interface PeriodSlot {
  /** `YYYY-MM`, `YYYY-Q<n>` or `YYYY`, as the response names it. */
  id: string;
  /** First day of the period, `YYYY-MM-DD`: the value of DuckDB's date_trunc for it. */
  start: string;
}

const MONTHS_PER: Record<Period, number> = { month: 1, quarter: 3, year: 12 };

function slotOf(index: number, period: Period): PeriodSlot {
  const step = MONTHS_PER[period];
  const first = Math.floor(index / step) * step;
  const year = Math.floor(first / 12);
  const month = (first % 12) + 1;
  const start = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`;
  // Every id starts with the four-digit year, also before the year 1000 (`0999-Q4`).
  const id =
    period === 'month'
      ? start.slice(0, 7)
      : period === 'quarter'
        ? `${start.slice(0, 4)}-Q${String((month + 2) / 3)}`
        : start.slice(0, 4);
  return { id, start };
}

export function periodCount(min: string, max: string, period: Period): number {
  const step = MONTHS_PER[period];
  return Math.floor(monthIndex(max) / step) - Math.floor(monthIndex(min) / step) + 1;
}

/** Every period from the one containing `min` to the one containing `max`, ascending. */
export function periodsBetween(min: string, max: string, period: Period): PeriodSlot[] {
  const step = MONTHS_PER[period];
  const slots: PeriodSlot[] = [];
  for (let i = Math.floor(monthIndex(min) / step) * step; i <= monthIndex(max); i += step) {
    slots.push(slotOf(i, period));
  }
  return slots;
}
