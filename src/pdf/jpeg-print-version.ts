import jpeg from 'jpeg-js';
import { limits } from '../limits.js';
import { printPixels, type Pixels } from './print-version.js';

/**
 * Quality of a JPEG's print version: at 2,400 pixels on a side, a page's photo shows no
 * artefacts at 85, and its file is a fraction of a camera's.
 */
const PRINT_QUALITY = 85;

/**
 * The print version of a decoded JPEG larger than a page can show (more than
 * `limits.attachments.printSide` pixels on a side), or undefined for one that is not: scaled
 * down by averaging and turned as its EXIF `orientation` says, so that it needs no EXIF of its
 * own, then encoded again. A camera's 12-megapixel photo (3–5 MB) printed as it is made a report
 * of a dozen photos 50 MB or more; at 2,400 pixels (a full A4 page's width at 300 dpi is about
 * 2,480) it is well under 1 MB, and prints the same. Kept only where it is smaller than the
 * file (`fileBytes`): a file compressed harder than quality 85, encoded again, grows (up to
 * twice, measured), and would only lose detail a second time.
 */
export function jpegPrintVersion(
  decoded: Pixels,
  orientation: number,
  fileBytes: number,
): Buffer | undefined {
  if (Math.max(decoded.width, decoded.height) <= limits.attachments.printSide) return undefined;
  const upright = turned(printPixels(decoded), orientation);
  const data = Buffer.from(upright.data.buffer, upright.data.byteOffset, upright.data.byteLength);
  const encoded = jpeg.encode({ ...upright, data }, PRINT_QUALITY).data;
  return encoded.length < fileBytes ? encoded : undefined;
}

/**
 * The pixels as shown for an EXIF orientation (1–8): mirrored and turned as viewers do. Each
 * shown pixel (x, y) takes the stored pixel `source(x, y)`; orientations 5–8 swap the sides.
 */
export function turned(image: Pixels, orientation: number): Pixels {
  const { width: w, height: h, data } = image;
  const swap = orientation >= 5 && orientation <= 8;
  const width = swap ? h : w;
  const height = swap ? w : h;
  const source: (x: number, y: number) => [number, number] =
    {
      2: (x: number, y: number): [number, number] => [w - 1 - x, y],
      3: (x: number, y: number): [number, number] => [w - 1 - x, h - 1 - y],
      4: (x: number, y: number): [number, number] => [x, h - 1 - y],
      5: (x: number, y: number): [number, number] => [y, x],
      6: (x: number, y: number): [number, number] => [y, h - 1 - x],
      7: (x: number, y: number): [number, number] => [w - 1 - y, h - 1 - x],
      8: (x: number, y: number): [number, number] => [w - 1 - y, x],
    }[orientation] ?? ((x: number, y: number): [number, number] => [x, y]);
  if (!swap && (orientation < 2 || orientation > 8)) return image;
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [sx, sy] = source(x, y);
      const from = (sy * w + sx) * 4;
      out.set(data.subarray(from, from + 4), (y * width + x) * 4);
    }
  }
  return { width, height, data: out };
}
