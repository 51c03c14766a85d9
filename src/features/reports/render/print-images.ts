import { createHash } from 'node:crypto';
import { limits } from '../../../limits.js';
import { withOrientationOnly } from '../../../pdf/jpeg-orientation.js';
import { needsPrintVersion, pngForPdfkit, printVersionOfPng } from '../../../pdf/print-version.js';

/** Images made ready for the page, by content: a dossier's reports show the same files again. */
const ready = new Map<string, Buffer>();
let readyBytes = 0;

/**
 * The bytes to hand pdfkit for an attachment image. A JPEG's EXIF is cut to its orientation
 * (src/pdf/jpeg-orientation.ts); a PNG pdfkit embeds as it is keeps its image chunks only
 * (`pngForPdfkit`); any other PNG is made into its print version (src/pdf/print-version.ts).
 * An upload stores that version beside the file, and reports read it instead; this is for
 * attachments stored before that, converted once per worker and kept (the most recently used
 * first, within `limits.reports.printImageCacheBytes`).
 */
export function printableImage(bytes: Uint8Array): Buffer {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer[0] === 0xff) return withOrientationOnly(buffer);
  if (buffer[0] !== 0x89) return buffer;
  if (!needsPrintVersion(buffer)) return pngForPdfkit(buffer);
  const key = createHash('sha256').update(buffer).digest('hex');
  const known = ready.get(key);
  if (known) {
    ready.delete(key);
    ready.set(key, known);
    return known;
  }
  const made = pngForPdfkit(printVersionOfPng(buffer));
  ready.set(key, made);
  readyBytes += made.length;
  for (const [oldKey, old] of ready) {
    if (readyBytes <= limits.reports.printImageCacheBytes) break;
    ready.delete(oldKey);
    readyBytes -= old.length;
  }
  return made;
}
