import { PDFArray, PDFNumber, type PDFContext, type PDFObject } from 'pdf-lib';
import { limits } from '../limits.js';

// A page's boxes as readers take them. A report copies a page's /MediaBox and /CropBox as they
// are, so one that is not a rectangle, has no area or is larger than any page (10^30 points)
// makes a report whose page readers refuse, show as a pixel, or that pdf-lib cannot read again.

/** A rectangle with its corners in order: `left` ≤ `right`, `bottom` ≤ `top`. */
export interface Box {
  left: number;
  bottom: number;
  right: number;
  top: number;
}

/**
 * The rectangle `value` is (ISO 32000-1, 7.9.5: an array of four numbers, the coordinates of
 * two diagonally opposite corners, in either order, each direct or indirect), its corners put
 * in order as readers do; undefined where it is not one.
 */
export function rectangle(context: PDFContext, value: PDFObject): Box | undefined {
  const array = context.lookup(value);
  if (!(array instanceof PDFArray) || array.size() !== 4) return undefined;
  const numbers: number[] = [];
  for (const item of array.asArray()) {
    const number = context.lookup(item);
    if (!(number instanceof PDFNumber) || !Number.isFinite(number.asNumber())) return undefined;
    numbers.push(number.asNumber());
  }
  const [x1, y1, x2, y2] = numbers as [number, number, number, number];
  return {
    left: Math.min(x1, x2),
    bottom: Math.min(y1, y2),
    right: Math.max(x1, x2),
    top: Math.max(y1, y2),
  };
}

/**
 * Why the /MediaBox `box` does not have a size a report can show, if it does not: its sides must
 * be `limits.covers.pdfPageMinSide` to `pdfPageMaxSide` units (PDF's implementation limits), and,
 * times the page's `userUnit` (1 where the page sets none), at most `pdfPageMaxSide` points: a
 * report is printed, and has no use for a page larger than 200 inches (PDF allows a /UserUnit up
 * to 75,000 for drawings of buildings or roads, not for pages of a report).
 */
export function mediaSizeProblem(box: Box, userUnit: number): string | undefined {
  const width = box.right - box.left;
  const height = box.top - box.bottom;
  if (width === 0 || height === 0) return 'has a /MediaBox of zero area';
  const { pdfPageMinSide: min, pdfPageMaxSide: max } = limits.covers;
  const fits = (side: number) => side >= min && side <= max;
  const units = `${shown(width)} × ${shown(height)} units`;
  if (!fits(width) || !fits(height)) {
    return `has a /MediaBox of ${units}; ${String(min)} to ${String(max)} on a side are allowed`;
  }
  const [printedWidth, printedHeight] = [width * userUnit, height * userUnit];
  if (printedWidth > max || printedHeight > max) {
    return `is ${shown(printedWidth)} × ${shown(printedHeight)} points (its /MediaBox of ${units} times its /UserUnit of ${shown(userUnit)}); a report's pages may be at most ${String(max)} points (200 inches) on a side`;
  }
  return undefined;
}

/**
 * Why a /CropBox of `crop` leaves too little of the /MediaBox `media` to show, if it does:
 * readers show the part of the media box within the crop box (ISO 32000-1, 14.11.2: a crop box
 * beyond the media box is clipped to it, so its own size does not matter), and one outside it
 * makes a page of no size.
 */
export function visiblePartProblem(crop: Box, media: Box): string | undefined {
  const width = Math.min(crop.right, media.right) - Math.max(crop.left, media.left);
  const height = Math.min(crop.top, media.top) - Math.max(crop.bottom, media.bottom);
  const min = limits.covers.pdfPageMinSide;
  if (width >= min && height >= min) return undefined;
  return `has a /CropBox that leaves less than ${String(min)} × ${String(min)} units of its /MediaBox to show`;
}

/** A number as a reason shows it: six significant digits at most. */
function shown(value: number): string {
  return String(Number(value.toPrecision(6)));
}
