import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { handMadePng, makePng, pngBomb } from '../../test/helpers/images.js';
import { expectedImageBytes, pngDataComplete } from './png-data.js';

describe('pngDataComplete', () => {
  it('takes whole images, interlaced or not, of sizes that do not fill the passes', () => {
    for (const [width, height] of [
      [1, 1],
      [3, 2],
      [13, 9],
      [64, 48],
    ] as const) {
      for (const interlaced of [false, true]) {
        const png = handMadePng(width, height, interlaced);
        // The decoder reads it as the image it is.
        const decoded = PNG.sync.read(png);
        expect([decoded.width, decoded.height]).toEqual([width, height]);
        expect(
          pngDataComplete(png),
          `${String(width)}×${String(height)} ${String(interlaced)}`,
        ).toBe(true);
      }
    }
    expect(pngDataComplete(makePng(64, 48))).toBe(true);
  });

  it('refuses image data that holds fewer pixels than the header declares, or more', () => {
    for (const interlaced of [false, true]) {
      expect(pngDataComplete(handMadePng(13, 9, interlaced, 1))).toBe(false);
    }
    // A 4×4 image's data under a header of 4,000 × 2,500 (8 and 16 bits).
    expect(pngDataComplete(pngBomb(4_000, 2_500))).toBe(false);
    expect(pngDataComplete(pngBomb(4_000, 2_500, 16))).toBe(false);
    expect(pngDataComplete(pngBomb(3, 4))).toBe(false);
  });

  it('counts a filter byte per scanline of each pass', () => {
    // 13×9 RGB: 9 lines of 1 + 39 bytes; interlaced, passes of 2×2, 2×2, 4×1, 3×3, 7×2, 6×5 and
    // 13×4 pixels.
    expect(expectedImageBytes(handMadePng(13, 9, false))).toBe(9 * 40);
    const passes = [
      [2, 2],
      [2, 2],
      [4, 1],
      [3, 3],
      [7, 2],
      [6, 5],
      [13, 4],
    ];
    expect(expectedImageBytes(handMadePng(13, 9, true))).toBe(
      passes.reduce((sum, [w = 0, h = 0]) => sum + h * (1 + 3 * w), 0),
    );
  });
});
