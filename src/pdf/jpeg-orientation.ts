import { fromBuffer } from 'jpeg-exif';

export interface PixelSize {
  width: number;
  height: number;
}

/**
 * The EXIF orientation of a JPEG, 1–8 (1: as stored, also when the file says nothing or its
 * EXIF cannot be read), read by the library pdfkit reads it with: pdfkit turns the image by it
 * when drawing, so what a report reserves for an image and what it draws agree. Phones store a
 * photo taken upright as landscape pixels with orientation 6.
 */
export function jpegOrientation(bytes: Buffer): number {
  let orientation: unknown;
  try {
    orientation = fromBuffer(bytes)?.Orientation;
  } catch {
    return 1;
  }
  return typeof orientation === 'number' && Number.isInteger(orientation) && orientation >= 1
    ? orientation
    : 1;
}

/** The size an image is shown at: orientations 5–8 turn it a quarter, so width and height swap. */
export function shownSize(size: PixelSize, orientation: number): PixelSize {
  return orientation > 4 ? { width: size.height, height: size.width } : size;
}
