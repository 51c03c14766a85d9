import { crc32 } from 'node:zlib';
import { PNG } from 'pngjs';
import { limits } from '../limits.js';

/**
 * A PNG's colour type (IHDR byte 9) says alpha, or a tRNS chunk makes colours transparent:
 * wherever it lies and however long it is, as pdfkit's reader (png-js) takes it, which made a
 * `/Mask` of two numbers per byte of it (a tRNS of 8 MiB after the image data ran the render
 * worker out of memory; looked for as bytes, it had hidden there, or behind "IDAT" in a text).
 */
function pngTransparency(bytes: Buffer): boolean {
  const colorType = bytes[25];
  if (colorType === 4 || colorType === 6) return true;
  return chunksOf(bytes).some((c) => c.type === 'tRNS');
}

/** The chunks that draw a PNG; a palette only where the colour type is one (3). */
const DRAWN = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND']);

/**
 * The PNG as pdfkit is given it: its image chunks only. pdfkit's reader (png-js) reads every
 * chunk it knows: a text chunk of 0.5 MB overflowed its stack in every report showing the file,
 * and a palette in a truecolour PNG (a suggestion for viewers of few colours, allowed) made it
 * print grey stripes. Transparency never reaches it: such a PNG is printed from its print
 * version. The bytes as they are where there is nothing to leave out.
 */
export function pngForPdfkit(bytes: Buffer): Buffer {
  const palette = bytes[25] === 3;
  const chunks = chunksOf(bytes);
  const drawn = chunks.filter((c) => DRAWN.has(c.type) && (c.type !== 'PLTE' || palette));
  if (drawn.length === chunks.length) return bytes;
  return Buffer.concat([
    bytes.subarray(0, 8),
    ...drawn.map((c) => bytes.subarray(c.start - 8, c.end + 4)),
  ]);
}

/** How many chunks a PNG has, counted up to `max + 1`. */
export function pngChunkCount(bytes: Buffer, max: number): number {
  let count = 0;
  for (let at = 8; at + 12 <= bytes.length && count <= max; count++) {
    const length = bytes.readUInt32BE(at);
    if (bytes.toString('latin1', at + 4, at + 8) === 'IEND') return count + 1;
    at += 12 + length;
  }
  return count;
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
  const printed = printPixels(image);
  const out = new PNG({ width: printed.width, height: printed.height });
  out.data = Buffer.from(printed.data.buffer, printed.data.byteOffset, printed.data.byteLength);
  return PNG.sync.write(out, { colorType: 2 });
}

/** The pixels `printVersion` prints: on white, scaled down to the print side, opaque RGBA. */
export function printPixels(image: Pixels): Pixels {
  const { width, height, data } = image;
  const scale = Math.min(1, limits.attachments.printSide / Math.max(width, height));
  const outWidth = Math.max(1, Math.round(width * scale));
  const outHeight = Math.max(1, Math.round(height * scale));
  const out = {
    width: outWidth,
    height: outHeight,
    data: new Uint8Array(outWidth * outHeight * 4),
  };
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
  return out;
}

/** A PNG's chunks in file order: type, and where its data starts and ends. */
export function chunksOf(bytes: Buffer): { type: string; start: number; end: number }[] {
  const chunks = [];
  for (let at = 8; at + 12 <= bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    chunks.push({ type, start: at + 8, end: at + 8 + length });
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return chunks;
}

/** A PNG chunk of `type` holding `data`: length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * The print version of a transparent palette PNG that needs nothing else (not interlaced, within
 * the print side), made without decoding a pixel: its palette laid on white and its
 * transparency chunk and other chunks that do not draw it left out, its image data kept as it is. A palette image's pixels are an
 * index each (1–8 bits), so it stays as small as it was sent; made as RGB it grew up to twelve
 * times (a 1.4 MB 2-bit floor plan of 2,400 × 2,400 pixels became 13.6 MB). Undefined for any
 * other PNG.
 */
export function palettePrintVersion(bytes: Buffer): Buffer | undefined {
  if (bytes.length < 29 || bytes[25] !== 3 || bytes[28] !== 0) return undefined;
  if (Math.max(bytes.readUInt32BE(16), bytes.readUInt32BE(20)) > limits.attachments.printSide) {
    return undefined;
  }
  const chunks = chunksOf(bytes);
  const plte = chunks.find((c) => c.type === 'PLTE');
  const trns = chunks.find((c) => c.type === 'tRNS');
  if (!plte || !trns) return undefined;
  const palette = Buffer.from(bytes.subarray(plte.start, plte.end));
  for (let i = 0; i < trns.end - trns.start && i * 3 + 2 < palette.length; i++) {
    // On white: c·a/255 + 255·(1 − a/255).
    const alpha = bytes[trns.start + i] as number;
    for (let c = i * 3; c < i * 3 + 3; c++) {
      palette[c] = Math.round(((palette[c] as number) * alpha + 255 * (255 - alpha)) / 255);
    }
  }
  const parts = [bytes.subarray(0, 8)];
  for (const c of chunks) {
    if (!DRAWN.has(c.type)) continue;
    parts.push(
      c.type === 'PLTE' ? pngChunk('PLTE', palette) : bytes.subarray(c.start - 8, c.end + 4),
    );
  }
  return Buffer.concat(parts);
}

/** The print version of PNG bytes whose pixels are decoded already: see `printVersionOfPng`. */
export function printVersionOf(bytes: Buffer, pixels: Pixels): Buffer {
  return palettePrintVersion(bytes) ?? printVersion(pixels);
}

/** The print version of PNG bytes: a palette one laid on white as it is, any other by pixels. */
export function printVersionOfPng(bytes: Buffer): Buffer {
  return palettePrintVersion(bytes) ?? printVersion(PNG.sync.read(bytes));
}
