import { describe, expect, it } from 'vitest';
import { Pacer } from '../../work/pacer.js';
import type { StatisticsRequest } from './schemas.js';
import { answerChunks } from './statistics.js';

const MONTHS = 24;

const request = {
  countryCode: 'AT',
  filters: { divisionLevel100: '1010', startDate: { min: '2024-01', max: '2025-12' } },
  statistics: [
    { type: 'count', metric: 'rent_gross' },
    { type: 'percentile', metric: 'rent_gross', parameters: { percentileRank: 50 } },
  ],
  groupBy: { field: 'start_date', period: 'month' },
} as unknown as StatisticsRequest;

/** Every other month has offers: 7 of them, median 1000 + the month's number. */
const results = Array.from({ length: MONTHS / 2 }, (_, i) => {
  const month = `${String(2024 + Math.floor((2 * i) / 12))}-${String(((2 * i) % 12) + 1).padStart(2, '0')}`;
  return { key: `${month}-01`, counts: { rent_gross: 7 }, values: [7, 1000 + 2 * i] };
});

describe('the statistics answer as JSON text', () => {
  it('lists every period, values where the sample is large enough, as the schema has it', async () => {
    const text = (await answerChunks(request, results, 5, JSON.stringify, new Pacer(5))).join('');
    const answer = JSON.parse(text) as {
      items: { groupId: string; statistics: { value?: number }[] }[];
    };
    expect(answer.items).toHaveLength(MONTHS);
    expect(answer.items[0]).toEqual({
      groupId: '2024-01',
      statistics: [
        { type: 'count', metric: 'rent_gross', value: 7 },
        {
          type: 'percentile',
          metric: 'rent_gross',
          parameters: { percentileRank: 50 },
          value: 1000,
        },
      ],
    });
    // A month without offers: its count is 0 and its percentile has no value.
    expect(answer.items[1]).toEqual({
      groupId: '2024-02',
      statistics: [
        { type: 'count', metric: 'rent_gross', value: 0 },
        { type: 'percentile', metric: 'rent_gross', parameters: { percentileRank: 50 } },
      ],
    });
    expect(answer.items[22]?.statistics[1]?.value).toBe(1022);
    // Too small a sample (7 < 8): the percentile is left out, the count stays.
    const small = JSON.parse(
      (await answerChunks(request, results, 8, JSON.stringify, new Pacer(5))).join(''),
    ) as typeof answer;
    expect(small.items[0]?.statistics).toEqual([
      { type: 'count', metric: 'rent_gross', value: 7 },
      { type: 'percentile', metric: 'rent_gross', parameters: { percentileRank: 50 } },
    ]);
  });

  it('gives the event loop its turns while it writes the groups', async () => {
    // A pacer whose time has always passed: a turn after every group. Counted by a callback
    // that runs once each turn of the event loop and schedules itself again.
    let turns = 0;
    let counting = true;
    const count = () => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const written: string[] = [];
    const at: number[] = [];
    await answerChunks(
      request,
      results,
      5,
      (group) => {
        written.push(group.groupId ?? '');
        at.push(turns);
        return JSON.stringify(group);
      },
      new Pacer(0),
    );
    counting = false;
    expect(written).toHaveLength(MONTHS);
    // Other work ran between every two groups written, not only before or after all of them.
    for (let i = 1; i < at.length; i++) expect(at[i]).toBeGreaterThan(at[i - 1] ?? Infinity);
  });

  it('is sent in chunks of about 64 KiB that together are the whole answer', async () => {
    const many = {
      ...request,
      statistics: Array.from({ length: 50 }, (_, i) => ({
        type: 'percentile',
        metric: 'rent_gross',
        parameters: { percentileRank: i + 1 },
      })),
    } as unknown as StatisticsRequest;
    const wide = results.map((r) => ({ ...r, values: r.values.concat(Array(48).fill(1234.5)) }));
    const chunks = await answerChunks(many, wide, 5, JSON.stringify, new Pacer(5));
    const text = chunks.join('');
    expect(text.length).toBeGreaterThan(64 * 1024);
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(64 * 1024);
    const answer = JSON.parse(text) as { items: { statistics: unknown[] }[] };
    expect(answer.items).toHaveLength(MONTHS);
    expect(answer.items.every((g) => g.statistics.length === 50)).toBe(true);
  });
});
