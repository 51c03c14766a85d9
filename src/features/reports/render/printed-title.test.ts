import { describe, expect, it } from 'vitest';
import { syntheticReportModel } from '../../../../bench/synthetic-report.js';
import { readPdf } from '../../../../test/helpers/pdf-reader.js';
import { renderReport } from './render.js';

describe('titles the typefaces cannot print', () => {
  it('stand in by the property’s kind and size, and a template name by nothing', async () => {
    const model = await syntheticReportModel('en');
    model.dossier.title = '東京スタイルの高級マンション';
    model.template.title = 'ユーザー テンプレート';
    model.template.provider = null;
    // Generated pages only: every page but the first has the foot.
    model.covers = { front: null, back: null };
    model.attachments = [];
    const pages = (await readPdf(await renderReport(model))).pages.map((p) =>
      p.replace(/\s+/g, ' '),
    );
    // The title page's band, and the foot of every page after it.
    expect(pages[0]).toContain('PROPERTY REPORT Apartment · 72 m²');
    for (const page of pages.slice(1)) expect(page).toMatch(/Apartment · 72 m² .*Page \d+ of \d+/);
    // The template's line is the date alone, not "· 15 June 2026".
    expect(pages[0]).toContain('Prepared by Demo Realty 15 June 2026');
    expect(pages[0]).not.toContain('· 15 June 2026');
  });

  it('leave a title that prints in part as it prints', async () => {
    const model = await syntheticReportModel('en');
    model.dossier.title = 'Wohnung 東京 am Graben';
    model.covers = { front: null, back: null };
    const pages = (await readPdf(await renderReport(model))).pages.map((p) =>
      p.replace(/\s+/g, ' '),
    );
    expect(pages[0]).toContain('Wohnung am Graben');
    expect(pages[0]).not.toContain('Apartment · 72 m²');
  });
});
