import { describe, expect, it } from 'vitest';
import { syntheticReportModel } from '../../../../bench/synthetic-report.js';
import { readPdf } from '../../../../test/helpers/pdf-reader.js';
import { defaultSections } from '../../templates/provider-templates.js';
import { say } from '../messages.js';
import { renderReport } from './render.js';

describe('the valuation section’s change', () => {
  it('is the change of the values it shows: of the net rents where those are shown', async () => {
    const model = await syntheticReportModel('en');
    const tracker = model.tracker;
    if (!tracker) throw new Error('the synthetic model has tracker insights');
    const [pastGross, nowGross] = tracker.valuations;
    if (!pastGross) throw new Error('the synthetic model has a past valuation');
    // Gross rents 978 → 942 (−3.7%); net, each with its own rounding, 803 → 774 (−3.6%).
    const rent = (v: typeof nowGross, value: number) => ({
      ...v,
      value,
      valueRange: { lower: value - 50, upper: value + 50 },
    });
    tracker.valuations = [rent(pastGross, 978), rent(nowGross, 942)];
    tracker.valuationChangePercent = -3.7;
    model.dossier.dealType = 'rent';
    model.template.rentType = 'rent_net';
    model.netRents = {
      valuations: [rent(pastGross, 803), rent(nowGross, 774)],
      ratio: 0.82,
      source: 'country',
    };
    model.template.sections = defaultSections('AT', 'appraisal').filter(
      (s) => s.type === 'valuation',
    );
    const text = (await readPdf(await renderReport(model))).pages.join(' ').replace(/\s+/g, ' ');
    expect(text).toContain('€803');
    expect(text).toContain('€774');
    // (774 − 803) / 803 = −3.61%, as the reader computes from the two rows.
    expect(text).toMatch(new RegExp(`${say('en', 'change').toUpperCase()} [-−]3\\.6%`));
    expect(text).not.toMatch(/[-−]3\.7%/);
  });
});
