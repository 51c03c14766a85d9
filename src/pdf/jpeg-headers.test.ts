import { describe, expect, it } from 'vitest';
import PDFDocument from 'pdfkit';
import {
  makeJpeg,
  makePng,
  scanBomb,
  withExifBomb,
  withOrientation,
  withXmp,
} from '../../test/helpers/images.js';
import { inspectAttachment, jpegScans, shownImageSize } from './image-inspection.js';
import { jpegOrientation, shownSize, withOrientationOnly } from './jpeg-orientation.js';
import { jpegHeader } from './jpeg-segments.js';

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

describe('the JPEG pdfkit is given', () => {
  /** The orientation pdfkit turns an image by, read by pdfkit itself. */
  const pdfkitOrientation = (bytes: Buffer) => {
    // pdfkit's own reading of an image (`openImage`, untyped in @types/pdfkit).
    const doc = new PDFDocument({ autoFirstPage: false }) as unknown as {
      openImage(bytes: Buffer): { orientation: number };
    };
    return doc.openImage(bytes).orientation;
  };
  const app1 = (bytes: Buffer) =>
    (jpegHeader(bytes)?.segments ?? []).filter((s) => s.code === 0xe1).map((s) => s.end - s.marker);

  it('keeps of a crafted EXIF segment the orientation only, which pdfkit turns it by', async () => {
    const plain = makeJpeg(120, 80);
    const bomb = withExifBomb(plain, 300, 6);
    expect(app1(bomb)[0]).toBeGreaterThan(10_000);
    expect(jpegOrientation(bomb)).toBe(6);
    const given = withOrientationOnly(bomb);
    // One segment of 36 bytes: the orientation alone, nothing of the crafted entries.
    expect(app1(given)).toEqual([36]);
    expect(given.length).toBe(plain.length + 36);
    expect(pdfkitOrientation(given)).toBe(6);
    // Accepted, shown upright at upload and in reports, as the orientation says.
    expect(await inspectAttachment(bomb)).toEqual({
      contentType: 'image/jpeg',
      width: 80,
      height: 120,
    });
    expect(shownImageSize(bomb)).toEqual({ width: 80, height: 120 });
  });

  it('drops EXIF and XMP for orientation 1 and leaves a JPEG without them as it is', () => {
    const plain = makeJpeg(60, 40);
    expect(withOrientationOnly(plain)).toBe(plain);
    const xmp = withXmp(plain);
    expect(withOrientationOnly(xmp)).toEqual(plain);
    expect(withOrientationOnly(withOrientation(plain, 1))).toEqual(plain);
    for (const o of [3, 8]) {
      const given = withOrientationOnly(withOrientation(xmp, o, true));
      expect(app1(given)).toEqual([36]);
      expect(pdfkitOrientation(given)).toBe(o);
    }
  });
});

describe('a JPEG larger than the decoder’s memory', () => {
  /** `file` with its frame header saying `width`×`height` pixels (the data stays as it was). */
  function declaring(file: Buffer, width: number, height: number): Buffer {
    const frame = jpegHeader(file)?.frame ?? -1;
    const out = Buffer.from(file);
    out.writeUInt16BE(height, frame + 5);
    out.writeUInt16BE(width, frame + 7);
    return out;
  }

  it('is checked by its structure, not decoded: a 24-megapixel photo is accepted', async () => {
    // 6000 × 4000 of 3 components needs about 400 MB of the decoder, over its 200 MB.
    const photo = declaring(makeJpeg(64, 48), 6000, 4000);
    expect(await inspectAttachment(photo)).toEqual({
      contentType: 'image/jpeg',
      width: 6000,
      height: 4000,
    });
    // One the decoder can take is decoded, so the same damage is found.
    await expect(inspectAttachment(declaring(makeJpeg(64, 48), 640, 480))).rejects.toThrow(
      /not a readable JPEG/,
    );
  });

  it('is refused where it ends before its image data does', async () => {
    const photo = declaring(makeJpeg(64, 48), 6000, 4000);
    await expect(inspectAttachment(photo.subarray(0, photo.length - 2))).rejects.toThrow(
      'is not a readable JPEG (it ends before its image data does)',
    );
  });
});

describe('a JPEG’s XMP', () => {
  it('is not taken for its EXIF, which may follow it', () => {
    // The XMP segment first, then the EXIF one.
    const both = withXmp(withOrientation(makeJpeg(60, 40), 6));
    expect(jpegOrientation(both)).toBe(6);
    expect(shownImageSize(both)).toEqual({ width: 40, height: 60 });
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
