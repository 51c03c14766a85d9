import { describe, expect, it } from 'vitest';
import { syntheticReportModel } from '../../../../bench/synthetic-report.js';
import { solidJpeg, withOrientation } from '../../../../test/helpers/images.js';
import { colourBox, wordBoxes } from '../../../../test/helpers/pdf-reader.js';
import type { ReportAttachment } from '../model.js';
import { defaultSections } from '../../templates/provider-templates.js';
import { renderReport } from './render.js';

const photo = (title: string, bytes: Buffer, width: number, height: number): ReportAttachment => ({
  type: 'floorplan',
  title,
  contentType: 'image/jpeg',
  width,
  height,
  pages: null,
  bytes,
});

describe('images in a report', () => {
  it('reserve the room an upright phone photo takes as drawn: its caption and the next image below it', async () => {
    const model = await syntheticReportModel('en', 10);
    model.template.sections = defaultSections('AT', 'appraisal').filter(
      (s) => s.type === 'attachments.floorplan',
    );
    // Landscape pixels a phone stored for an upright photo (EXIF orientation 6), listed with
    // the size stored before uploads measured the shown size; then a small plain image.
    model.attachments = [
      photo('Upright', withOrientation(solidJpeg(300, 200, [230, 20, 20]), 6), 300, 200),
      photo('Small', solidJpeg(40, 30, [20, 20, 230]), 40, 30),
    ];
    const pdf = await renderReport(model);
    const pages = await wordBoxes(pdf);
    const page = pages.findIndex((words) => words.some((w) => w.text === 'Upright')) + 1;
    const words = pages[page - 1] ?? [];
    const caption = words.find((w) => w.text === 'Upright');
    const nextCaption = words.find((w) => w.text === 'Small');
    const red = await colourBox(pdf, page, (r, g, b) => r > 180 && g < 90 && b < 90);
    const blue = await colourBox(pdf, page, (r, g, b) => b > 180 && r < 90 && g < 90);
    if (!caption || !nextCaption || !red || !blue) throw new Error('photo or caption not drawn');
    // Drawn upright at a point per pixel: 200 wide, 300 tall.
    expect(red.right - red.left).toBeGreaterThan(195);
    expect(red.right - red.left).toBeLessThan(205);
    expect(red.bottom - red.top).toBeGreaterThan(295);
    expect(red.bottom - red.top).toBeLessThan(305);
    expect(caption.yMin).toBeGreaterThanOrEqual(red.bottom - 1);
    expect(blue.top).toBeGreaterThanOrEqual(caption.yMax);
    // Not blown up: 40 × 30 pixels drawn at 40 × 30 points.
    expect(blue.right - blue.left).toBeLessThan(45);
    expect(nextCaption.yMin).toBeGreaterThanOrEqual(blue.bottom - 1);
  });

  it('leave a caption of two lines its room: the next image starts below its last line', async () => {
    const model = await syntheticReportModel('de', 10);
    model.template.sections = defaultSections('AT', 'appraisal').filter(
      (s) => s.type === 'attachments.floorplan',
    );
    const long =
      'Panorama vom Dachgarten über die Innenstadt, aufgenommen im Sommer bei Sonnenuntergang ' +
      'mit Weitwinkelobjektiv und einem sehr langen Titel, der zwei Zeilen füllt: Schlusswort';
    model.attachments = [
      photo(long, solidJpeg(400, 120, [230, 20, 20]), 400, 120),
      photo('Klein', solidJpeg(200, 100, [20, 20, 230]), 200, 100),
    ];
    const pdf = await renderReport(model);
    const pages = await wordBoxes(pdf);
    const page = pages.findIndex((words) => words.some((w) => w.text === 'Schlusswort')) + 1;
    const words = pages[page - 1] ?? [];
    const first = words.find((w) => w.text === 'Panorama');
    const last = words.find((w) => w.text === 'Schlusswort');
    const blue = await colourBox(pdf, page, (r, g, b) => b > 180 && r < 90 && g < 90);
    if (!first || !last || !blue) throw new Error('photo or caption not drawn');
    // Two lines, the second wholly above the next image.
    expect(last.yMin).toBeGreaterThan(first.yMax - 1);
    expect(blue.top).toBeGreaterThanOrEqual(last.yMax);
  });
});
