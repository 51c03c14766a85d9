import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { limits } from '../limits.js';
import { needsPrintVersion, printVersion, printVersionOfPng } from './print-version.js';

function rgba(width: number, height: number, pixel: (x: number, y: number) => number[]): PNG {
  const image = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) image.data.set(pixel(x, y), (y * width + x) * 4);
  }
  return image;
}

const encode = (image: PNG, options: { colorType?: 0 | 2 | 4 | 6; bitDepth?: 8 | 16 } = {}) =>
  PNG.sync.write(image, options);

describe('needsPrintVersion', () => {
  const opaque = encode(
    rgba(4, 3, () => [10, 20, 30, 255]),
    { colorType: 2 },
  );

  it('passes an opaque 8-bit PNG of a printable size as it is', () => {
    expect(needsPrintVersion(opaque)).toBe(false);
  });

  it('makes one for transparency, 16 bits, interlacing and a size beyond the page', () => {
    expect(needsPrintVersion(encode(rgba(4, 3, () => [1, 2, 3, 200])))).toBe(true);
    expect(
      needsPrintVersion(
        encode(
          rgba(4, 3, () => [1, 2, 3, 255]),
          { bitDepth: 16 },
        ),
      ),
    ).toBe(true);
    // IHDR byte 12 of its data (file byte 28) is the interlace method; only the header is read.
    const interlaced = Buffer.from(opaque);
    interlaced[28] = 1;
    expect(needsPrintVersion(interlaced)).toBe(true);
    const side = limits.attachments.printSide;
    expect(
      needsPrintVersion(
        encode(
          rgba(side, 1, () => [0, 0, 0, 255]),
          { colorType: 2 },
        ),
      ),
    ).toBe(false);
    expect(
      needsPrintVersion(
        encode(
          rgba(1, side + 1, () => [0, 0, 0, 255]),
          { colorType: 2 },
        ),
      ),
    ).toBe(true);
  });
});

describe('printVersion', () => {
  it('scales a large image down to the print side, averaging the pixels each one covers', () => {
    const side = limits.attachments.printSide;
    // Columns alternately black and white, twice as wide as the page allows: each printed
    // pixel covers one of each, so every one is mid-grey ((0 + 255) / 2 = 127.5 → 128).
    const wide = rgba(2 * side, 6, (x) => (x % 2 === 0 ? [0, 0, 0, 255] : [255, 255, 255, 255]));
    const made = PNG.sync.read(printVersion(wide));
    expect([made.width, made.height]).toEqual([side, 3]);
    expect(new Set(made.data)).toEqual(new Set([128, 255]));
    for (let i = 3; i < made.data.length; i += 4) expect(made.data[i]).toBe(255);
  });

  it('lays transparent pixels on white before averaging, and writes RGB without alpha', () => {
    const image = rgba(
      3,
      1,
      (x) =>
        [
          [255, 0, 0, 128],
          [0, 0, 255, 0],
          [0, 200, 0, 255],
        ][x] ?? [],
    );
    const bytes = printVersionOfPng(encode(image));
    expect(bytes[25]).toBe(2); // IHDR colour type: RGB
    expect(needsPrintVersion(bytes)).toBe(false);
    const over = (c: number, a: number) => Math.round((c * a + 255 * (255 - a)) / 255);
    expect([...PNG.sync.read(bytes).data]).toEqual([
      ...[255, over(0, 128), over(0, 128), 255],
      ...[255, 255, 255, 255],
      ...[0, 200, 0, 255],
    ]);
  });
});
