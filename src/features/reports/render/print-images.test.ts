import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { printableImage } from './print-images.js';

function png(pixels: number[], options: { colorType?: 0 | 2 | 4 | 6 } = {}): Buffer {
  const image = new PNG({ width: pixels.length / 4, height: 1 });
  image.data.set(pixels);
  return PNG.sync.write(image, options);
}

describe('printableImage', () => {
  it('lays a transparent PNG on white: the colours a white page would show, no alpha left', () => {
    // Half-transparent red, fully transparent blue, opaque green.
    const made = printableImage(png([255, 0, 0, 128, 0, 0, 255, 0, 0, 200, 0, 255]));
    expect(made[25]).toBe(2); // IHDR colour type: RGB without alpha
    const pixels = [...PNG.sync.read(made).data];
    // Composited by hand: c·a/255 + 255·(1 − a/255), rounded.
    const over = (c: number, a: number) => Math.round((c * a + 255 * (255 - a)) / 255);
    // Read back as RGBA: every pixel opaque now.
    expect(pixels).toEqual([
      ...[255, over(0, 128), over(0, 128), 255],
      ...[255, 255, 255, 255],
      ...[0, 200, 0, 255],
    ]);
  });

  it('hands over opaque PNGs and JPEGs as they are', () => {
    const opaque = png([10, 20, 30, 255, 40, 50, 60, 255], { colorType: 2 });
    expect(printableImage(opaque).equals(opaque)).toBe(true);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3]);
    expect(printableImage(jpeg).equals(jpeg)).toBe(true);
  });

  it('converts the same content once and then answers from memory', () => {
    const bytes = png([1, 2, 3, 4, 5, 6, 7, 8]);
    const first = printableImage(bytes);
    // Another copy of the same bytes, as the next report brings them.
    expect(printableImage(new Uint8Array(bytes))).toBe(first);
  });
});
