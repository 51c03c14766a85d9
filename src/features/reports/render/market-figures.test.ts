import { describe, expect, it } from 'vitest';
import { syntheticReportModel } from '../../../../bench/synthetic-report.js';
import { readPdf } from '../../../../test/helpers/pdf-reader.js';
import { defaultSections } from '../../templates/provider-templates.js';
import { renderReport } from './render.js';

describe('a report’s figures over the offers', () => {
  it('are over every offer counted, not only the 500 the tracker lists', async () => {
    const model = await syntheticReportModel('en', 640);
    const all = model.offerPrices;
    expect(all).toHaveLength(640);
    const tracker = model.tracker;
    if (!tracker) throw new Error('the synthetic model has tracker insights');
    // As the service's tracker answers: the nearest 500 listed, all counted.
    tracker.offers = { items: tracker.offers.items.slice(0, 500), totalItems: all.length };
    model.countryCode = 'CH';
    model.template.sections = defaultSections('CH', 'appraisal').filter((s) =>
      ['market', 'comparables'].includes(s.type),
    );
    const text = (await readPdf(await renderReport(model))).pages.join('\n');
    expect(text).toContain('640 offers of the same kind found');

    // The quarter table, computed independently from every offer's price.
    const expected = new Map<string, { sum: number; count: number }>();
    for (const o of all) {
      // Sorted as the table's rows: by year, then quarter ("Q3 2025" before "Q1 2026").
      const quarter = `Q${String(Math.ceil(Number(o.startDate.slice(5, 7)) / 3))} ${o.startDate.slice(0, 4)}`;
      const g = expected.get(quarter) ?? { sum: 0, count: 0 };
      expected.set(quarter, { sum: g.sum + o.pricePerSquareMeter, count: g.count + 1 });
    }
    const rows = [...text.matchAll(/^\s*(Q\d \d{4})\s+(.+?)\s+([\d,]+)\s*$/gm)].map((m) => ({
      quarter: m[1] ?? '',
      mean: Number((m[2] ?? '').replace(/[^\d.]/g, '')),
      count: Number((m[3] ?? '').replace(/,/g, '')),
    }));
    const byTime = (q: string) => q.slice(3) + q.slice(1, 2);
    expect(rows.map((r) => r.quarter)).toEqual(
      [...expected.keys()].sort((a, b) => byTime(a).localeCompare(byTime(b))),
    );
    expect(rows.reduce((sum, r) => sum + r.count, 0)).toBe(640);
    for (const row of rows) {
      const g = expected.get(row.quarter);
      expect(row.count).toBe(g?.count);
      expect(row.mean).toBeCloseTo((g?.sum ?? 0) / (g?.count ?? 1), 0);
    }
  });
});
