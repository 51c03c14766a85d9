import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { withOrientation } from '../../test/helpers/images.js';
import { limits } from '../limits.js';
import { inspectAttachment } from './image-inspection.js';
import { jpegOrientation } from './jpeg-orientation.js';
import { turned } from './jpeg-print-version.js';

/** Pixels of `width`×`height` whose red channel is each pixel's number (RGBA). */
function numbered(width: number, height: number) {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([i, 0, 0, 255], i * 4);
  return { width, height, data };
}

/** The pixel numbers of `image`, row by row. */
const rows = (image: { width: number; height: number; data: Uint8Array }) =>
  Array.from({ length: image.height }, (_, y) =>
    Array.from({ length: image.width }, (_, x) => image.data[(y * image.width + x) * 4]),
  );

describe('turned', () => {
  // Stored   a b c      (0 1 2)
  //          d e f      (3 4 5)
  // shown as EXIF's orientations define (CIPA DC-008, the 0th row and column of each).
  it.each([
    [
      1,
      [
        [0, 1, 2],
        [3, 4, 5],
      ],
    ],
    [
      2,
      [
        [2, 1, 0],
        [5, 4, 3],
      ],
    ],
    [
      3,
      [
        [5, 4, 3],
        [2, 1, 0],
      ],
    ],
    [
      4,
      [
        [3, 4, 5],
        [0, 1, 2],
      ],
    ],
    [
      5,
      [
        [0, 3],
        [1, 4],
        [2, 5],
      ],
    ],
    [
      6,
      [
        [3, 0],
        [4, 1],
        [5, 2],
      ],
    ],
    [
      7,
      [
        [5, 2],
        [4, 1],
        [3, 0],
      ],
    ],
    [
      8,
      [
        [2, 5],
        [1, 4],
        [0, 3],
      ],
    ],
    [
      0,
      [
        [0, 1, 2],
        [3, 4, 5],
      ],
    ],
  ])('shows orientation %i as a viewer does', (orientation, shown) => {
    expect(rows(turned(numbered(3, 2), orientation))).toEqual(shown);
  });
});

describe('a JPEG larger than a page shows', () => {
  it('is printed from a version at the print side, upright, without EXIF', async () => {
    // 3,000 × 2,000 stored, its top left quarter red, the rest blue; a phone's upright photo
    // (orientation 6: shown turned a quarter clockwise).
    const width = 3000;
    const height = 2000;
    const data = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const red = x < width / 2 && y < height / 2;
        data.set(red ? [220, 20, 20, 255] : [20, 20, 220, 255], (y * width + x) * 4);
      }
    }
    const photo = withOrientation(Buffer.from(jpeg.encode({ data, width, height }, 90).data), 6);
    const facts = await inspectAttachment(photo);
    expect(facts).toMatchObject({ contentType: 'image/jpeg', width: 2000, height: 3000 });
    if (!('print' in facts) || !facts.print) throw new Error('no print version');
    const print = Buffer.from(facts.print);
    expect(print.length).toBeLessThan(photo.length);
    expect(jpegOrientation(print)).toBe(1);
    const shown = jpeg.decode(print, { useTArray: true });
    const side = limits.attachments.printSide;
    expect([shown.width, shown.height]).toEqual([(side * 2) / 3, side]);
    // The stored top left is shown top right.
    const at = (x: number, y: number) =>
      Array.from(shown.data.subarray((y * shown.width + x) * 4, (y * shown.width + x) * 4 + 3));
    const isRed = ([r = 0, , b = 0]: number[]) => r > 150 && b < 80;
    expect(isRed(at(shown.width - 10, 10))).toBe(true);
    expect(isRed(at(10, 10))).toBe(false);
    expect(isRed(at(shown.width - 10, shown.height - 10))).toBe(false);
  });

  it('is kept as it is where a version at the print side would be no smaller', async () => {
    // Grain at quality 40: quality 85 at 2,400 pixels keeps more of it than the file does.
    const width = 2500;
    const height = 1800;
    const data = Buffer.alloc(width * height * 4, 255);
    let seed = 7;
    for (let i = 0; i < width * height * 4; i++) {
      if (i % 4 === 3) continue;
      seed = (seed * 1103515245 + 12345) % 2147483648;
      data[i] = 108 + (seed % 40);
    }
    const photo = Buffer.from(jpeg.encode({ data, width, height }, 40).data);
    const facts = await inspectAttachment(photo);
    expect(facts).toMatchObject({ contentType: 'image/jpeg', width, height });
    expect('print' in facts && facts.print).toBeFalsy();
  });

  it('is kept as it is within the print side', async () => {
    const side = limits.attachments.printSide;
    const data = Buffer.alloc(side * 100 * 4, 180);
    const photo = Buffer.from(jpeg.encode({ data, width: side, height: 100 }, 80).data);
    const facts = await inspectAttachment(photo);
    expect('print' in facts && facts.print).toBeFalsy();
  });
});
