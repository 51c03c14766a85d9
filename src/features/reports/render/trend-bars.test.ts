import { describe, expect, it } from 'vitest';
import { syntheticReportModel } from '../../../../bench/synthetic-report.js';
import { readPdf } from '../../../../test/helpers/pdf-reader.js';
import { say } from '../messages.js';
import { renderReport } from './render.js';

/** The text of a report with only the comparables' trend chart, its recent period as given. */
async function trendText(recent: { value?: number; count: number }): Promise<string> {
  const model = await syntheticReportModel('de');
  const tracker = model.tracker;
  if (!tracker) throw new Error('the synthetic model has tracker insights');
  const [around, last] = tracker.trends;
  if (!around || !last) throw new Error('the synthetic model has two trends');
  tracker.trends = [around, { dateRange: last.dateRange, ...recent }];
  model.template.sections = [
    { type: 'comparables', enabled: true, configuration: { market_trends: true } },
  ];
  return (await readPdf(await renderReport(model))).pages.join('\n');
}

describe('the trend chart of a report', () => {
  it('says in an empty period’s slot that it had no similar offers', async () => {
    const text = await trendText({ count: 0 });
    expect(text).toContain(say('de', 'trendNone'));
    expect(text).toMatch(/n ?= ?0\b/);
    expect(text).toContain('10.390');
  });

  it('says nothing of the kind where both periods have offers', async () => {
    const text = await trendText({ value: 10_920, count: 241 });
    expect(text).not.toContain(say('de', 'trendNone'));
    expect(text).toContain('10.920');
  });
});
