import type { PixelSize } from '../../../pdf/jpeg-orientation.js';

/**
 * The size in points an image of `shown` pixels (as shown, turned by its orientation) is drawn
 * at within a box: as large as fits, keeping its proportions, but never larger than one point
 * per pixel (72 dpi), so a small image (a 10 × 10 px icon) is not blown up into a page of blur.
 */
export function imageFit(shown: PixelSize, box: PixelSize): PixelSize {
  const scale = Math.min(box.width / shown.width, box.height / shown.height, 1);
  return { width: shown.width * scale, height: shown.height * scale };
}
