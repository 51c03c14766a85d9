import { PNG } from 'pngjs';
import { limits } from '../limits.js';

/** A PNG's colour type (IHDR byte 9) says alpha, or a tRNS chunk makes colours transparent. */
function pngTransparency(bytes: Buffer): boolean {
  const colorType = bytes[25];
  if (colorType === 4 || colorType === 6) return true;
  // tRNS comes before the first IDAT when it is there at all.
  const idat = bytes.indexOf('IDAT', 33, 'latin1');
  const trns = bytes.indexOf('tRNS', 33, 'latin1');
  return trns >= 0 && (idat < 0 || trns < idat);
}

/**
 * Whether a PNG is printed from a print version rather than as it is. pdfkit embeds an opaque,
 * 8-bit, non-interlaced PNG's compressed data unchanged, but decodes any other in JavaScript on
 * every report (a transparent one is also split into colour and mask): about 60 ms for an
 * 800 × 560 floor plan, 2.5–3.5 s for a 40-megapixel one. An image larger than a page can show
 * (`limits.attachments.printSide`) only makes the report bigger.
 */
export function needsPrintVersion(bytes: Buffer): boolean {
  if (bytes.length < 29) return false;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const bitDepth = bytes[24];
  const interlaced = bytes[28] === 1;
  return (
    pngTransparency(bytes) ||
    bitDepth === 16 ||
    interlaced ||
    Math.max(width, height) > limits.attachments.printSide
  );
}

/** Decoded pixels, 8-bit RGBA, as pngjs gives them. */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * The image as a report prints it: laid on white (the page under it is white, so nothing
 * visible changes), scaled down to at most `limits.attachments.printSide` pixels on its longer
 * side by averaging the pixels each new one covers, as an opaque 8-bit RGB PNG that pdfkit
 * embeds without decoding.
 */
export function printVersion(image: Pixels): Buffer {
  const { width, height, data } = image;
  const scale = Math.min(1, limits.attachments.printSide / Math.max(width, height));
  const outWidth = Math.max(1, Math.round(width * scale));
  const outHeight = Math.max(1, Math.round(height * scale));
  const out = new PNG({ width: outWidth, height: outHeight });
  for (let y = 0; y < outHeight; y++) {
    const y0 = Math.floor((y * height) / outHeight);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * height) / outHeight));
    for (let x = 0; x < outWidth; x++) {
      const x0 = Math.floor((x * width) / outWidth);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * width) / outWidth));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0, at = (sy * width + x0) * 4; sx < x1; sx++, at += 4) {
          // On white: c·a/255 + 255·(1 − a/255).
          const alpha = data[at + 3] as number;
          const white = 255 * (255 - alpha);
          r += (data[at] as number) * alpha + white;
          g += (data[at + 1] as number) * alpha + white;
          b += (data[at + 2] as number) * alpha + white;
        }
      }
      const n = (y1 - y0) * (x1 - x0) * 255;
      const to = (y * outWidth + x) * 4;
      out.data[to] = Math.round(r / n);
      out.data[to + 1] = Math.round(g / n);
      out.data[to + 2] = Math.round(b / n);
      out.data[to + 3] = 255;
    }
  }
  return PNG.sync.write(out, { colorType: 2 });
}

/** `printVersion` of PNG bytes. */
export function printVersionOfPng(bytes: Buffer): Buffer {
  return printVersion(PNG.sync.read(bytes));
}
