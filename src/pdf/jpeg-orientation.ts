import { jpegHeader, type Segment } from './jpeg-segments.js';

export interface PixelSize {
  width: number;
  height: number;
}

const APP1 = 0xe1;
const ORIENTATION_TAG = 0x0112;
const SHORT = 3;

/**
 * The EXIF orientation of a JPEG, 1–8 (1: as stored, also when the file says nothing or its
 * EXIF cannot be read): the Orientation entry of the first directory of its EXIF segment. Phones
 * store a photo taken upright as landscape pixels with orientation 6. Read here, entry by entry
 * within the segment, rather than by an EXIF library: pdfkit's (jpeg-exif) decodes every entry
 * of every directory, and a 66 kB segment of entries pointing into each other took it 6 s.
 */
export function jpegOrientation(bytes: Buffer): number {
  const exif = jpegHeader(bytes)?.segments.find((s) => isExif(bytes, s));
  return exif ? (orientationIn(bytes.subarray(exif.marker + 10, exif.end)) ?? 1) : 1;
}

/** An APP1 segment holding EXIF (XMP is APP1 too, under another name). */
function isExif(bytes: Buffer, segment: Segment): boolean {
  return (
    segment.code === APP1 &&
    segment.end - segment.marker >= 10 &&
    bytes.toString('latin1', segment.marker + 4, segment.marker + 10) === 'Exif\0\0'
  );
}

/** The orientation a TIFF structure (an EXIF segment's body) states, if a valid one. */
function orientationIn(tiff: Buffer): number | undefined {
  const order = tiff.toString('latin1', 0, 2);
  if ((order !== 'MM' && order !== 'II') || tiff.length < 8) return undefined;
  const big = order === 'MM';
  const u16 = (at: number) => (big ? tiff.readUInt16BE(at) : tiff.readUInt16LE(at));
  const u32 = (at: number) => (big ? tiff.readUInt32BE(at) : tiff.readUInt32LE(at));
  const directory = u32(4);
  if (directory + 2 > tiff.length) return undefined;
  const entries = u16(directory);
  for (let i = 0; i < entries; i++) {
    const entry = directory + 2 + 12 * i;
    if (entry + 12 > tiff.length) return undefined;
    if (u16(entry) !== ORIENTATION_TAG) continue;
    const value = u16(entry + 8);
    return u16(entry + 2) === SHORT && u32(entry + 4) >= 1 && value >= 1 && value <= 8
      ? value
      : undefined;
  }
  return undefined;
}

/** An EXIF segment holding only an orientation (big-endian TIFF, one entry). */
function orientationSegment(orientation: number): Buffer {
  const segment = Buffer.alloc(36);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(34, 2); // its length, these two bytes included
  segment.write('Exif\0\0MM', 4, 'latin1');
  segment.writeUInt16BE(42, 12);
  segment.writeUInt32BE(8, 14); // the directory follows the TIFF header
  segment.writeUInt16BE(1, 18); // one entry:
  segment.writeUInt16BE(ORIENTATION_TAG, 20);
  segment.writeUInt16BE(SHORT, 22);
  segment.writeUInt32BE(1, 24);
  segment.writeUInt16BE(orientation, 28); // then two bytes of padding and no next directory
  return segment;
}

/**
 * The JPEG as pdfkit is given it: its EXIF (and XMP) segments replaced by one that holds its
 * orientation only (none for 1), the rest as it is. pdfkit reads every JPEG's EXIF with
 * jpeg-exif, which decodes all of it (a crafted 66 kB segment took 6 s, in every report showing
 * it); it uses the orientation only, so what it is given turns the image as `jpegOrientation`
 * says, and the space a report reserves for it agrees. The bytes as they are where there is no
 * such segment (or no header to walk: pdfkit refuses those).
 */
export function withOrientationOnly(bytes: Buffer): Buffer {
  const header = jpegHeader(bytes);
  if (!header?.segments.some((s) => s.code === APP1)) return bytes;
  const orientation = jpegOrientation(bytes);
  const parts: Buffer[] = [bytes.subarray(0, 2)];
  if (orientation !== 1) parts.push(orientationSegment(orientation));
  for (const segment of header.segments) {
    if (segment.code !== APP1) parts.push(bytes.subarray(segment.start, segment.end));
  }
  parts.push(bytes.subarray(header.frame));
  return Buffer.concat(parts);
}

/** The size an image is shown at: orientations 5–8 turn it a quarter, so width and height swap. */
export function shownSize(size: PixelSize, orientation: number): PixelSize {
  return orientation > 4 ? { width: size.height, height: size.width } : size;
}
