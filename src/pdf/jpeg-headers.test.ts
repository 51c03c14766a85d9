import { describe, expect, it } from 'vitest';
import { makeJpeg, makePng, scanBomb, withOrientation } from '../../test/helpers/images.js';
import { inspectAttachment, jpegScans, shownImageSize } from './image-inspection.js';
import { jpegOrientation, shownSize } from './jpeg-orientation.js';

describe('a JPEG’s orientation', () => {
  it('is read from its EXIF in either byte order, 1 where it says none or cannot be read', () => {
    const plain = makeJpeg(60, 40);
    expect(jpegOrientation(plain)).toBe(1);
    expect(jpegOrientation(withOrientation(plain, 6))).toBe(6);
    expect(jpegOrientation(withOrientation(plain, 8, true))).toBe(8);
    expect(jpegOrientation(withOrientation(plain, 3))).toBe(3);
    // An EXIF segment cut short after its header.
    const broken = Buffer.concat([
      plain.subarray(0, 2),
      Buffer.from([0xff, 0xe1, 0x00, 0x0a]),
      Buffer.from('Exif\0\0MM', 'latin1'),
      plain.subarray(2),
    ]);
    expect(jpegOrientation(broken)).toBe(1);
  });

  it('turns the shown size a quarter for orientations 5–8 only', () => {
    const size = { width: 1200, height: 800 };
    for (const o of [1, 2, 3, 4]) expect(shownSize(size, o)).toEqual(size);
    for (const o of [5, 6, 7, 8]) expect(shownSize(size, o)).toEqual({ width: 800, height: 1200 });
  });

  it('gives an upright phone photo its shown size at upload and in reports; PNGs as stored', async () => {
    const upright = withOrientation(makeJpeg(120, 80), 6);
    expect(await inspectAttachment(upright)).toEqual({
      contentType: 'image/jpeg',
      width: 80,
      height: 120,
    });
    expect(shownImageSize(upright)).toEqual({ width: 80, height: 120 });
    expect(shownImageSize(makePng(30, 20))).toEqual({ width: 30, height: 20 });
  });
});

describe('a JPEG’s scans', () => {
  it('are counted by walking its segments, past the bytes of its image data and of its EXIF', () => {
    const plain = makeJpeg(64, 48);
    expect(jpegScans(plain)).toBe(1);
    // An EXIF segment holds an embedded start-of-scan byte pair: a segment's content is skipped.
    expect(jpegScans(withOrientation(plain, 6))).toBe(1);
    const exif = Buffer.from([0xff, 0xe1, 0x00, 0x06, 0xff, 0xda, 0x00, 0x00]);
    expect(jpegScans(Buffer.concat([plain.subarray(0, 2), exif, plain.subarray(2)]))).toBe(1);
    expect(jpegScans(scanBomb(512, 9))).toBe(10);
  });
});
