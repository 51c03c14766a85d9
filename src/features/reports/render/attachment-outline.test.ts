import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { syntheticReportModel } from '../../../../bench/synthetic-report.js';
import { samplePdf } from '../../../../scripts/sample-files.js';
import { solidJpeg } from '../../../../test/helpers/images.js';
import { outlineTree, readPdf } from '../../../../test/helpers/pdf-reader.js';
import type { ReportAttachment } from '../model.js';
import { renderReport } from './render.js';

const pdf = async (title: string, pages: number): Promise<ReportAttachment> => ({
  type: 'permit',
  title,
  contentType: 'application/pdf',
  width: null,
  height: null,
  pages,
  bytes: await samplePdf(
    Array.from({ length: pages }, (_, i) => `${title.toUpperCase()} P${String(i + 1)}`),
    false,
  ),
});

describe('attached PDFs in the outline', () => {
  it('each has an entry under its section’s, showing its own first page', async () => {
    const model = await syntheticReportModel('en', 10);
    model.attachments = [
      ...model.attachments.filter((a) => a.type !== 'permit'),
      await pdf('Permit A', 3),
      await pdf('Permit B', 2),
    ];
    const bytes = await renderReport(model);
    const pages = (await readPdf(bytes)).pages;
    const starts = (title: string) => pages.findIndex((p) => p.includes(`${title} P1`));
    const tree = await outlineTree(bytes);
    const permits = tree.find((e) => e.title === 'Permits');
    expect(permits?.children.map((c) => [c.title, c.page])).toEqual([
      ['Permit A', starts('PERMIT A')],
      ['Permit B', starts('PERMIT B')],
    ]);
    // B's first page follows A's three, after the page announcing both, which says where each
    // starts and ends as the report numbers its pages (from 1, covers included).
    expect(starts('PERMIT B')).toBe(starts('PERMIT A') + 3);
    const a = starts('PERMIT A') + 1;
    const announcing = (pages[a - 2] ?? '').replace(/\s+/g, ' ');
    expect(announcing).toContain(
      `Permit A: 3 pages follow, pages ${String(a)}–${String(a + 2)}. ` +
        `Permit B: 2 pages follow, pages ${String(a + 3)}–${String(a + 4)}.`,
    );
    // The generated page after them goes on counting.
    expect(pages[a + 4]).toContain(`Page ${String(a + 5)} of`);
    expect(pages[permits?.page ?? 0]).toContain('Permits');
    // No other entry has children, and no private mark is left in the file.
    expect(tree.filter((e) => e.children.length > 0).map((e) => e.title)).toEqual(['Permits']);
    const document = await PDFDocument.load(bytes, { updateMetadata: false });
    const marked = document.context
      .enumerateIndirectObjects()
      .filter(
        ([, object]) => object instanceof PDFDict && object.has(PDFName.of('PropdataInsert')),
      );
    expect(marked).toEqual([]);
  });

  it('says only how many pages follow where the announcements would not fit on one page', async () => {
    const model = await syntheticReportModel('en', 10);
    const long = (i: number) => `Permit ${String(i)} ${'with a very long title '.repeat(8)}`;
    model.attachments = [
      ...model.attachments.filter((a) => a.type !== 'permit'),
      ...(await Promise.all(Array.from({ length: 20 }, (_, i) => pdf(long(i), 1)))),
    ];
    const pages = (await readPdf(await renderReport(model))).pages.map((p) =>
      p.replace(/\s+/g, ' '),
    );
    const text = pages.join(' ');
    expect(text).toContain('1 page follows.');
    expect(text).not.toMatch(/page follows, page \d/);
    // Every file is still announced, and its page follows.
    for (let i = 0; i < 20; i++) expect(text).toContain(`PERMIT ${String(i)} WITH`);
  });

  it('keeps the announcements on one page, the next one if this one has too little room left', async () => {
    const model = await syntheticReportModel('en', 10);
    const photo = solidJpeg(500, 640, [90, 90, 90]);
    model.attachments = [
      ...model.attachments.filter((a) => a.type !== 'permit'),
      // A scan filling most of the section's first page, then six files.
      {
        ...(await pdf('Scan', 1)),
        contentType: 'image/jpeg',
        width: 500,
        height: 640,
        pages: null,
        bytes: photo,
      },
      ...(await Promise.all([1, 2, 3, 4, 5, 6].map((i) => pdf(`Permit ${String(i)}`, 2)))),
    ];
    const pages = (await readPdf(await renderReport(model))).pages.map((p) =>
      p.replace(/\s+/g, ' '),
    );
    const first = pages.findIndex((p) => p.includes('PERMIT 1 P1'));
    const announcing = pages[first - 1] ?? '';
    for (let i = 1; i <= 6; i++) {
      const at = first + 1 + (i - 1) * 2;
      expect(announcing).toContain(
        `Permit ${String(i)}: 2 pages follow, pages ${String(at)}–${String(at + 1)}.`,
      );
    }
    // The scan is on the page before, alone with the section's heading.
    expect(pages[first - 2]).toContain('Scan');
    expect(pages[first - 2]).not.toContain('pages follow');
  });
});
