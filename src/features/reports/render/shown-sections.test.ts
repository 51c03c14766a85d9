import { describe, expect, it } from 'vitest';
import { syntheticReportModel } from '../../../../bench/synthetic-report.js';
import { outlineTitles, readPdf } from '../../../../test/helpers/pdf-reader.js';
import { say } from '../messages.js';
import { defaultSections } from '../../templates/provider-templates.js';
import { renderReport } from './render.js';

describe('sections a report shows', () => {
  it('leaves out an enabled section whose every item is off, and keeps one with an item on', async () => {
    const model = await syntheticReportModel('en', 50);
    const off = (configuration: Record<string, string | boolean>) =>
      Object.fromEntries(
        Object.entries(configuration).map(([k, v]) => [k, typeof v === 'boolean' ? false : v]),
      );
    model.template.sections = defaultSections('AT', 'appraisal')
      .filter((s) => ['valuation', 'comparables', 'amenities', 'socio'].includes(s.type))
      .map((s) => {
        if (s.type === 'comparables' || s.type === 'amenities') {
          return { ...s, enabled: true, configuration: off(s.configuration) };
        }
        return { ...s, enabled: true };
      });
    const pdf = await renderReport(model);
    // In the template's order.
    expect(await outlineTitles(pdf)).toEqual(
      model.template.sections
        .filter((s) => s.type === 'valuation' || s.type === 'socio')
        .map((s) => say('en', `section.${s.type}`)),
    );
    const text = (await readPdf(pdf)).pages.join(' ');
    expect(text).not.toContain(say('en', 'section.comparables'));
    expect(text).not.toContain(say('en', 'section.amenities'));
  });

  it('says in a band on the page before that a comparables section of transactions alone has none', async () => {
    const model = await syntheticReportModel('en', 50);
    model.template.sections = defaultSections('DE', 'appraisal')
      .filter((s) => s.type === 'valuation' || s.type === 'comparables')
      .map((s) =>
        s.type === 'comparables'
          ? {
              ...s,
              enabled: true,
              configuration: {
                offers: false,
                offer_details: false,
                market_trends: false,
                transactions: true,
                transaction_details: false,
              },
            }
          : { ...s, enabled: true },
      )
      // The valuation first: a statement never follows on the title page.
      .sort((a, b) => Number(b.type === 'valuation') - Number(a.type === 'valuation'));
    const pages = (await readPdf(await renderReport(model))).pages;
    const statement = pages.findIndex((p) => p.includes(say('en', 'noTransactions')));
    expect(statement).toBeGreaterThan(0);
    // On the valuation's page, not on one of its own.
    expect(pages[statement]).toContain(say('en', 'section.valuation'));
  });
});
