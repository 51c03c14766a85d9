import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFStream,
  type PDFContext,
  type PDFObject,
} from 'pdf-lib';
import { mediaSizeProblem, rectangle, visiblePartProblem } from './pdf-page-boxes.js';

// A page's entries a report copies as they are (pdf-lib's copyPages), checked so that a report
// holds only pages readers can show (ISO 32000-1, 7.7.3.3): a /Contents that is a number made
// poppler refuse the report's page ("Page contents object is wrong type"), a /Rotate of 33 is
// a rotation no reader makes, and a box of three numbers made pdf-lib fail to read the report.
// Each rule is one test of a value already parsed: a page costs microseconds.

const MEDIA_BOX = PDFName.of('MediaBox');
const CROP_BOX = PDFName.of('CropBox');
const ROTATE = PDFName.of('Rotate');
const RESOURCES = PDFName.of('Resources');
const USER_UNIT = PDFName.of('UserUnit');
const CONTENTS = PDFName.of('Contents');
const ANNOTS = PDFName.of('Annots');

/** PDF's largest integer (ISO 32000-1, Annex C): readers keep /Rotate in 32 bits (poppler
 * ignores a larger one, so 9×10^15, a multiple of 90, turned the page by nothing). */
const MAX_INTEGER = 2_147_483_647;

/**
 * Why a page cannot be put into a report as it is, if it cannot; the reason completes
 * "cover page 3 …". `chain` is the page, then its parents up to the tree's root: the
 * inheritable entries (/MediaBox, /CropBox, /Rotate, /Resources, 7.7.3.4) are the page's own or
 * the nearest parent's, as the report's copy takes them (it follows /Parent, as this does).
 */
export function pageProblem(context: PDFContext, chain: readonly PDFDict[]): string | undefined {
  const [page] = chain;
  if (!page) return undefined;
  // A null entry is none (7.3.9): the page inherits past it, in readers and in the copy.
  const inherited = (key: PDFName) =>
    value(context, chain.find((node) => node.get(key) !== undefined)?.get(key));

  const userUnit = value(context, page.get(USER_UNIT)) ?? PDFNumber.of(1);
  if (
    !(userUnit instanceof PDFNumber) ||
    !(userUnit.asNumber() > 0) ||
    !Number.isFinite(userUnit.asNumber())
  ) {
    return 'has a /UserUnit that is not a positive number';
  }
  const unit = userUnit.asNumber();

  const mediaValue = inherited(MEDIA_BOX);
  if (mediaValue === undefined) return 'has no /MediaBox (on the page or the page tree above it)';
  const media = rectangle(context, mediaValue);
  if (!media) return 'has a /MediaBox that is not 4 numbers';
  const mediaSize = mediaSizeProblem(media, unit);
  if (mediaSize) return mediaSize;

  const cropValue = inherited(CROP_BOX);
  if (cropValue !== undefined) {
    const crop = rectangle(context, cropValue);
    if (!crop) return 'has a /CropBox that is not 4 numbers';
    const cropProblem = visiblePartProblem(crop, media);
    if (cropProblem) return cropProblem;
  }

  const rotate = inherited(ROTATE);
  if (rotate !== undefined) {
    if (!(rotate instanceof PDFNumber)) return 'has a /Rotate that is not a number';
    const degrees = rotate.asNumber();
    if (!Number.isInteger(degrees) || degrees % 90 !== 0) {
      return `has a /Rotate of ${String(degrees)}; only multiples of 90 are allowed`;
    }
    if (Math.abs(degrees) > MAX_INTEGER) {
      return `has a /Rotate of ${String(degrees)}; multiples of 90 up to ±${String(MAX_INTEGER)} are allowed`;
    }
  }

  // Absent, the page is empty; else one stream, or streams that readers join (7.7.3.3).
  const contents = value(context, page.get(CONTENTS));
  if (
    contents !== undefined &&
    !(contents instanceof PDFStream) &&
    !(contents instanceof PDFArray && contents.asArray().every((c) => isStream(context, c)))
  ) {
    return 'has a /Contents that is neither a stream nor an array of streams';
  }

  // Absent (nor on a parent), the page has no resources: readers and pdf-lib take it as empty,
  // as an empty page needs.
  const resources = inherited(RESOURCES);
  if (resources !== undefined && !(resources instanceof PDFDict)) {
    return 'has a /Resources that is not a dictionary';
  }

  const annots = value(context, page.get(ANNOTS));
  if (annots !== undefined && !(annots instanceof PDFArray)) {
    return 'has an /Annots that is not an array';
  }
  return undefined;
}

/** What an entry's value is once its reference is followed; a null, or a reference to no
 * object, is no value (ISO 32000-1, 7.3.9 and 7.3.10). */
function value(context: PDFContext, entry: PDFObject | undefined): PDFObject | undefined {
  if (entry === undefined) return undefined;
  const resolved = context.lookup(entry);
  return resolved === PDFNull ? undefined : resolved;
}

function isStream(context: PDFContext, item: PDFObject): boolean {
  return context.lookup(item) instanceof PDFStream;
}
