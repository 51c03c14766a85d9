// The files a sample report carries: a floor plan image and generated PDFs for covers and a
// permit. Shared by scripts/report-sample.ts and the report benchmark.
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { PNG } from 'pngjs';

/** A simple floor plan: walls as dark lines on white. */
export function floorPlan(): Buffer {
  const width = 800;
  const height = 560;
  const png = new PNG({ width, height });
  png.data.fill(255);
  const wall = (x0: number, y0: number, x1: number, y1: number) => {
    for (let x = Math.min(x0, x1); x <= Math.max(x0, x1); x++) {
      for (let y = Math.min(y0, y1); y <= Math.max(y0, y1); y++) {
        const at = (y * width + x) * 4;
        png.data[at] = 40;
        png.data[at + 1] = 50;
        png.data[at + 2] = 60;
      }
    }
  };
  wall(40, 40, 760, 46);
  wall(40, 514, 760, 520);
  wall(40, 40, 46, 520);
  wall(754, 40, 760, 520);
  wall(400, 40, 404, 330);
  wall(40, 330, 300, 334);
  wall(360, 330, 760, 334);
  wall(580, 334, 584, 520);
  return PNG.sync.write(png);
}

/** A4 pages with one line of text each; `dark`: white on dark blue, as a cover. */
export async function samplePdf(pages: string[], dark: boolean): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.HelveticaBold);
  for (const text of pages) {
    const page = document.addPage([595.28, 841.89]);
    if (dark)
      page.drawRectangle({
        x: 0,
        y: 0,
        width: 595.28,
        height: 841.89,
        color: rgb(0.12, 0.23, 0.37),
      });
    page.drawText(text, {
      x: 50,
      y: 420,
      size: 26,
      font,
      color: dark ? rgb(1, 1, 1) : rgb(0.1, 0.1, 0.1),
    });
  }
  return document.save();
}
