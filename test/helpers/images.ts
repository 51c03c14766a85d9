import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { ADAM7 } from '../../src/pdf/png-data.js';
import { pngChunk } from '../../src/pdf/print-version.js';

/** A PNG of `width`×`height` pixels: a gradient, so it does not compress to nothing. */
export function makePng(width = 64, height = 48): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    png.data[i * 4] = (i * 7) % 256;
    png.data[i * 4 + 1] = (i * 13) % 256;
    png.data[i * 4 + 2] = 180;
    png.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(png);
}

/** A PNG of random pixels, stored without compression: a file of about `width × height × 4`
 * bytes, for tests of sizes. */
export function makeLargePng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  randomBytes(width * height * 4).copy(png.data);
  return PNG.sync.write(png, { deflateLevel: 0 });
}

/** A JPEG of `width`×`height` pixels. */
export function makeJpeg(width = 64, height = 48): Buffer {
  const data = Buffer.alloc(width * height * 4, 200);
  return Buffer.from(jpeg.encode({ data, width, height }, 80).data);
}

/** A JPEG of one colour (RGB), `width`×`height` pixels as stored. */
export function solidJpeg(width: number, height: number, rgb: [number, number, number]): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([...rgb, 255], i * 4);
  return Buffer.from(jpeg.encode({ data, width, height }, 90).data);
}

/**
 * The JPEG with an EXIF segment saying `orientation` (6: a phone's upright photo, stored as
 * landscape pixels to be turned a quarter clockwise), in big- or little-endian TIFF.
 */
export function withOrientation(file: Buffer, orientation: number, littleEndian = false): Buffer {
  const tiff = Buffer.alloc(26);
  const u16 = (value: number, at: number) =>
    littleEndian ? tiff.writeUInt16LE(value, at) : tiff.writeUInt16BE(value, at);
  const u32 = (value: number, at: number) =>
    littleEndian ? tiff.writeUInt32LE(value, at) : tiff.writeUInt32BE(value, at);
  tiff.write(littleEndian ? 'II' : 'MM', 0, 'latin1');
  u16(42, 2);
  u32(8, 4); // the first directory follows the header
  u16(1, 8); // one entry:
  u16(0x0112, 10); // Orientation,
  u16(3, 12); // a SHORT,
  u32(1, 14); // one of them,
  u16(orientation, 18); // its value (in the first two bytes of the value field);
  u32(0, 22); // no next directory
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(payload.length + 2);
  return Buffer.concat([
    file.subarray(0, 2),
    Buffer.from([0xff, 0xe1]),
    length,
    payload,
    file.subarray(2),
  ]);
}

/** `file` with an XMP segment (APP1, as EXIF's) right after its start-of-image marker. */
export function withXmp(file: Buffer): Buffer {
  const xmp = Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>', 'latin1');
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(xmp.length + 2, 2);
  return Buffer.concat([file.subarray(0, 2), header, xmp, file.subarray(2)]);
}

/**
 * `file` with an EXIF segment crafted to cost an EXIF reader that decodes every entry: a
 * directory of `entries` RATIONAL entries, each pointing at the whole directory read as
 * rationals, then the Orientation entry, then an Exif-directory pointer back to itself (64 kB
 * of this took jpeg-exif 6 s).
 */
export function withExifBomb(file: Buffer, entries: number, orientation: number): Buffer {
  const directory = Buffer.alloc(2 + 12 * (entries + 2) + 4 + 8 * 1000, 0x11);
  directory.writeUInt16BE(entries + 2, 0);
  const entry = (i: number, tag: number, type: number, count: number, value: number) => {
    const at = 2 + 12 * i;
    directory.writeUInt16BE(tag, at);
    directory.writeUInt16BE(type, at + 2);
    directory.writeUInt32BE(count, at + 4);
    if (type === 3) directory.writeUInt32BE(value * 0x10000, at + 8);
    else directory.writeUInt32BE(value, at + 8);
  };
  const rationals = Math.floor(directory.length / 8);
  for (let i = 0; i < entries; i++) entry(i, 0x011a, 5, rationals, 8);
  entry(entries, 0x0112, 3, 1, orientation);
  entry(entries + 1, 0x8769, 4, 1, 8);
  directory.writeUInt32BE(0, 2 + 12 * (entries + 2));
  const payload = Buffer.concat([Buffer.from('Exif\0\0MM\0\x2a\0\0\0\x08', 'latin1'), directory]);
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([file.subarray(0, 2), header, payload, file.subarray(2)]);
}

/**
 * A progressive greyscale JPEG of `side`×`side` pixels with a DC scan and `acScans` AC scans,
 * each a few bytes of end-of-band runs that skip the whole image: small, yet every scan costs
 * a decoder a pass over every block.
 */
export function scanBomb(side: number, acScans: number): Buffer {
  const segment = (marker: number, payload: Buffer) => {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(payload.length + 2, 2);
    return Buffer.concat([head, payload]);
  };
  const frame = Buffer.alloc(9);
  frame.writeUInt8(8, 0);
  frame.writeUInt16BE(side, 1);
  frame.writeUInt16BE(side, 3);
  frame.set([1, 1, 0x11, 0], 5);
  const table = (tableClass: number, symbol: number) =>
    Buffer.from([tableClass, 1, ...new Array<number>(15).fill(0), symbol]);
  const blocks = Math.ceil(side / 8) ** 2;
  // An end-of-band run of up to 32,767 blocks per symbol: code '0', then 14 bits of ones.
  const bits = '0'.concat('1'.repeat(14)).repeat(Math.floor(blocks / 32_767) + 2);
  const padded = bits + '1'.repeat((8 - (bits.length % 8)) % 8);
  const run: number[] = [];
  for (let i = 0; i < padded.length; i += 8) {
    const byte = parseInt(padded.slice(i, i + 8), 2);
    run.push(...(byte === 0xff ? [0xff, 0] : [byte]));
  }
  const parts = [
    Buffer.from([0xff, 0xd8]),
    segment(0xdb, Buffer.from([0, ...new Array<number>(64).fill(1)])),
    segment(0xc2, frame),
    segment(0xc4, table(0x00, 0x00)),
    segment(0xc4, table(0x10, 0xe0)),
    segment(0xda, Buffer.from([1, 1, 0, 0, 0, 0])),
    Buffer.alloc(Math.ceil(blocks / 8) + 1),
  ];
  for (let i = 0; i < acScans; i++) {
    parts.push(segment(0xda, Buffer.from([1, 1, 0, 1, 63, 0])), Buffer.from(run));
  }
  parts.push(Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}

const chunk = pngChunk;

/** A small PNG whose header declares `width`×`height` pixels: a decompression bomb if decoded. */
export function pngBomb(width: number, height: number, bitDepth = 8): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bitDepth;
  header[9] = 6; // RGBA
  const valid = makePng(4, 4);
  // The real image data of a 4×4 image: its IDAT would not fill the declared size.
  const idat = valid.subarray(33, valid.length - 12);
  return Buffer.concat([
    valid.subarray(0, 8),
    chunk('IHDR', header),
    idat,
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG whose frame header declares `width`×`height` pixels. */
export function jpegBomb(width: number, height: number): Buffer {
  const bytes = Buffer.from(makeJpeg(8, 8));
  for (let at = 2; at < bytes.length;) {
    const marker = bytes[at + 1] as number;
    if (marker === 0xc0 || marker === 0xc2) {
      bytes.writeUInt16BE(height, at + 5);
      bytes.writeUInt16BE(width, at + 7);
      return bytes;
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error('no frame header');
}

/**
 * A PNG written by hand, as PNG defines it: `width`×`height` pixels of 8-bit RGB, Adam7
 * interlaced (`interlaced`) or not, every scanline unfiltered; `cut` bytes fewer of image data
 * than its header declares. No encoder at hand writes interlaced PNGs.
 */
export function handMadePng(width: number, height: number, interlaced: boolean, cut = 0): Buffer {
  // The passes as the service counts them; the decoder reading the file back checks them.
  const passes = interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
  const lines: Buffer[] = [];
  for (const [x0, y0, dx, dy] of passes) {
    for (let y = y0; y < height; y += dy) {
      const pixels: number[] = [];
      for (let x = x0; x < width; x += dx) pixels.push((x * 7) % 256, (y * 11) % 256, 90);
      if (pixels.length > 0) lines.push(Buffer.from([0, ...pixels]));
    }
  }
  const raw = Buffer.concat(lines);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2; // RGB
  header[12] = interlaced ? 1 : 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw.subarray(0, raw.length - cut))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A palette PNG written by hand: `width`×`height` indexes of `bitDepth` bits into `palette`
 * (RGB triples), with `alphas` as its tRNS chunk (one per entry, from the first) if given,
 * Adam7 interlaced or not, every scanline unfiltered. `index(x, y)` picks each pixel's entry
 * (default: random, which no compressor shrinks). pngjs writes no palette PNGs.
 */
export function palettePng(options: {
  width: number;
  height: number;
  bitDepth: 1 | 2 | 4 | 8;
  palette: [number, number, number][];
  alphas?: number[];
  interlaced?: boolean;
  index?: (x: number, y: number) => number;
}): Buffer {
  const { width, height, bitDepth, palette, alphas, interlaced = false } = options;
  const noise = randomBytes(width * height);
  const index =
    options.index ?? ((x: number, y: number) => (noise[y * width + x] as number) % palette.length);
  const passes = interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
  const lines: Buffer[] = [];
  for (const [x0, y0, dx, dy] of passes) {
    const columns = Math.ceil((width - x0) / dx);
    if (columns <= 0) continue;
    for (let y = y0; y < height; y += dy) {
      const line = Buffer.alloc(1 + Math.ceil((columns * bitDepth) / 8));
      for (let c = 0; c < columns; c++) {
        const bit = c * bitDepth;
        const at = 1 + (bit >> 3);
        line[at] = (line[at] as number) | (index(x0 + c * dx, y) << (8 - bitDepth - (bit & 7)));
      }
      lines.push(line);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bitDepth;
  header[9] = 3; // palette
  header[12] = interlaced ? 1 : 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from(palette.flat())),
    ...(alphas ? [chunk('tRNS', Buffer.from(alphas))] : []),
    chunk('IDAT', deflateSync(Buffer.concat(lines))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
