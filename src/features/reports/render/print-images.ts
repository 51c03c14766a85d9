import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { limits } from '../../../limits.js';

/** A PNG's colour type (IHDR byte 9) and whether a tRNS chunk makes colours transparent. */
function pngTransparency(bytes: Buffer): boolean {
  const colorType = bytes[25];
  if (colorType === 4 || colorType === 6) return true;
  // tRNS comes before the first IDAT when it is there at all.
  const idat = bytes.indexOf('IDAT', 33, 'latin1');
  const trns = bytes.indexOf('tRNS', 33, 'latin1');
  return trns >= 0 && (idat < 0 || trns < idat);
}

/**
 * A transparent PNG as an opaque one, its pixels laid on white. The page under a report's images
 * is white, so nothing visible changes; but pdfkit embeds an opaque PNG's compressed data as it
 * is, while a transparent one is decoded and split into colour and mask in JavaScript on every
 * report (measured: about 60 ms of a 200 ms render for one 800 × 560 floor plan).
 */
function opaque(bytes: Buffer): Buffer {
  const png = PNG.sync.read(bytes);
  return PNG.sync.write(png, { colorType: 2, bgColor: { red: 255, green: 255, blue: 255 } });
}

/** Images made ready for the page, by content: a dossier's reports show the same files again. */
const ready = new Map<string, Buffer>();
let readyBytes = 0;

/**
 * The bytes to hand pdfkit for an attachment image. JPEGs and opaque PNGs pass through; a
 * transparent PNG is made opaque once per worker and kept (the most recently used first, within
 * `limits.reports.printImageCacheBytes`), so the reports of one dossier pay for it once.
 */
export function printableImage(bytes: Uint8Array): Buffer {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer[0] !== 0x89 || !pngTransparency(buffer)) return buffer;
  const key = createHash('sha256').update(buffer).digest('hex');
  const known = ready.get(key);
  if (known) {
    ready.delete(key);
    ready.set(key, known);
    return known;
  }
  const made = opaque(buffer);
  ready.set(key, made);
  readyBytes += made.length;
  for (const [oldKey, old] of ready) {
    if (readyBytes <= limits.reports.printImageCacheBytes) break;
    ready.delete(oldKey);
    readyBytes -= old.length;
  }
  return made;
}
