import { inflateSync } from 'node:zlib';

/** Samples per pixel of each PNG colour type (grey, RGB, palette, grey + alpha, RGBA). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Adam7's seven passes: where each starts and how far apart its pixels are, in x and y. */
export const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Bytes of the filtered scanlines of a `width` × `height` image: a filter byte per line. */
function scanlineBytes(width: number, height: number, bitsPerPixel: number): number {
  if (width === 0 || height === 0) return 0;
  return height * (1 + Math.ceil((width * bitsPerPixel) / 8));
}

/**
 * The bytes a PNG's image data must inflate to, from its header: every scanline of every pass.
 * Undefined for a colour type or interlace method PNG does not have.
 */
export function expectedImageBytes(bytes: Buffer): number | undefined {
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const bitDepth = bytes.readUInt8(24);
  const channels = CHANNELS[bytes.readUInt8(25)];
  const interlace = bytes.readUInt8(28);
  if (channels === undefined || interlace > 1) return undefined;
  const bits = channels * bitDepth;
  if (interlace === 0) return scanlineBytes(width, height, bits);
  return ADAM7.reduce(
    (sum, [x0, y0, dx, dy]) =>
      sum + scanlineBytes(Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy), bits),
    0,
  );
}

/**
 * Whether a PNG's image data holds every pixel its header declares: its IDAT chunks inflate to
 * exactly the scanlines of its size. The decoder fills what is missing without a word, so a file
 * of a hundred bytes declaring millions of pixels decoded as an image of nothing. Inflating stops
 * one byte past the expected size, whatever the data would expand to.
 */
export function pngDataComplete(bytes: Buffer): boolean {
  const expected = expectedImageBytes(bytes);
  if (expected === undefined) return false;
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') parts.push(bytes.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  try {
    return inflateSync(Buffer.concat(parts), { maxOutputLength: expected + 1 }).length === expected;
  } catch {
    return false;
  }
}
