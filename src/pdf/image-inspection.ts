import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { limits } from '../limits.js';
import { jpegOrientation, shownSize } from './jpeg-orientation.js';
import { jpegWithoutFill, pdfkitRefusal } from './jpeg-print.js';
import { jpegPrintVersion } from './jpeg-print-version.js';
import { jpegHeader, SOF } from './jpeg-segments.js';
import { inspectPdf, PdfRefusal, type PdfFacts } from './pdf-inspection.js';
import { needsPrintVersion, pngChunkCount, printVersionOf } from './print-version.js';
import { pngDataComplete } from './png-data.js';

/**
 * What the service keeps about an accepted attachment file. An image's `width` and `height` are
 * as it is shown: a JPEG's EXIF orientation applied, as viewers and reports apply it. `print`: the version of a PNG or a
 * JPEG that reports show, where pdfkit could not embed the file as it is (src/pdf/print-version.ts,
 * src/pdf/jpeg-print.ts).
 */
export type AttachmentFacts =
  | { contentType: 'image/png'; width: number; height: number; print?: Uint8Array }
  | { contentType: 'image/jpeg'; width: number; height: number; print?: Uint8Array }
  | ({ contentType: 'application/pdf' } & PdfFacts);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PDF_HEADER = Buffer.from('%PDF-', 'latin1');

/** The file's kind by its first bytes; its name and declared type say nothing. */
export function sniffContentType(bytes: Buffer): AttachmentFacts['contentType'] | undefined {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  // Readers accept the PDF header anywhere in the first kilobyte.
  if (bytes.subarray(0, 1024).indexOf(PDF_HEADER) >= 0) return 'application/pdf';
  return undefined;
}

interface Size {
  width: number;
  height: number;
}

/** A PNG's size and bits per channel (1, 2, 4, 8 or 16). */
interface PngHeader extends Size {
  bitDepth: number;
}

/** A PNG's size from its header chunk (IHDR must come first), before anything is decoded. */
export function pngSize(bytes: Buffer): PngHeader {
  if (bytes.length < 25 || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    throw new PdfRefusal('is not a readable PNG (no IHDR header chunk)');
  }
  return {
    width: bytes.readUInt32BE(16),
    height: bytes.readUInt32BE(20),
    bitDepth: bytes.readUInt8(24),
  };
}

/** A JPEG's size from its start-of-frame segment, found by walking the segments before it. */
export function jpegSize(bytes: Buffer): Size {
  const frame = jpegHeaderFrame(bytes);
  if (!frame) {
    throw new PdfRefusal('is not a readable JPEG (no frame header before the image data)');
  }
  return { width: frame.width, height: frame.height };
}

/**
 * The scans of a JPEG (start-of-scan segments), found by walking its segments and skipping
 * each scan's entropy-coded data to the next marker (0xFF there is followed by a stuffed 0x00
 * or is a restart marker), before anything is decoded.
 */
export function jpegScans(bytes: Buffer): number {
  return jpegWalk(bytes).scans;
}

/** The walk of `jpegScans`: the scans, and whether it reached the end-of-image marker. */
function jpegWalk(bytes: Buffer): { scans: number; ended: boolean } {
  let scans = 0;
  let at = 2;
  while (at + 2 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1] as number;
    if (marker === 0xd9) return { scans, ended: true };
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    if (at + 4 > bytes.length) break;
    at += 2 + bytes.readUInt16BE(at + 2);
    if (marker !== 0xda) continue;
    scans += 1;
    for (;;) {
      at = bytes.indexOf(0xff, at);
      if (at < 0 || at + 1 >= bytes.length) return { scans, ended: false };
      const next = bytes[at + 1] as number;
      if (next !== 0x00 && (next < 0xd0 || next > 0xd7)) break;
      at += 2;
    }
  }
  return { scans, ended: false };
}

/**
 * Bytes jpeg-js asks for to decode a JPEG, from its frame header, by its own accounting: each
 * component's blocks (256 bytes each, whole MCUs), its samples, the component planes and the
 * RGBA image. Undefined where the header says no components.
 */
function jpegDecodeBytes(bytes: Buffer): number | undefined {
  const frame = jpegHeaderFrame(bytes);
  if (!frame) return undefined;
  const { width, height, components } = frame;
  const maxH = Math.max(...components.map((c) => c.h));
  const maxV = Math.max(...components.map((c) => c.v));
  const mcusPerLine = Math.ceil(width / 8 / maxH);
  const mcusPerColumn = Math.ceil(height / 8 / maxV);
  let total = width * height * (components.length + 4);
  for (const { h, v } of components) {
    const blocksPerLine = Math.ceil((Math.ceil(width / 8) * h) / maxH);
    const blocksPerColumn = Math.ceil((Math.ceil(height / 8) * v) / maxV);
    total += mcusPerLine * h * mcusPerColumn * v * 256 + blocksPerLine * 8 * blocksPerColumn * 8;
  }
  return total;
}

/** A JPEG's frame header: its size and its components' sampling factors. */
function jpegHeaderFrame(
  bytes: Buffer,
): { width: number; height: number; components: { h: number; v: number }[] } | undefined {
  const header = jpegHeader(bytes);
  if (!header || header.frame + 10 > bytes.length) return undefined;
  const at = header.frame;
  if (!SOF.has(bytes[at + 1] as number)) return undefined;
  const count = bytes[at + 9] as number;
  if (count < 1 || at + 10 + 3 * count > bytes.length) return undefined;
  const components = Array.from({ length: count }, (_, i) => {
    const factors = bytes[at + 11 + 3 * i] as number;
    return { h: Math.max(1, factors >> 4), v: Math.max(1, factors & 15) };
  });
  return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7), components };
}

/**
 * The pixel size an accepted PNG or JPEG is shown at, from its bytes: a JPEG turned by its EXIF
 * orientation, as pdfkit draws it.
 */
export function shownImageSize(bytes: Buffer): Size {
  if (sniffContentType(bytes) === 'image/png') {
    const { width, height } = pngSize(bytes);
    return { width, height };
  }
  return shownSize(jpegSize(bytes), jpegOrientation(bytes));
}

/**
 * Refuses, before decoding, an image whose pixels would take more memory or time than allowed:
 * a 16-bit PNG's pixels cost the decoder about four times an 8-bit one's (measured), so it may
 * have a quarter of the pixels.
 */
function checkSize({ width, height }: Size, bitDepth = 8): void {
  const { maxPixels, maxSide, sixteenBitPixelCost } = limits.attachments;
  if (width < 1 || height < 1) throw new PdfRefusal('is an image without pixels');
  if (width > maxSide || height > maxSide || width * height > maxPixels) {
    throw new PdfRefusal(
      `is an image of ${width}×${height} pixels; at most ${maxPixels} pixels and ` +
        `${maxSide} on a side are allowed`,
    );
  }
  const most16 = maxPixels / sixteenBitPixelCost;
  if (bitDepth === 16 && width * height > most16) {
    throw new PdfRefusal(
      `is a 16-bit image of ${width}×${height} pixels; 16-bit images may have at most ` +
        `${most16} pixels (or save it with 8 bits per channel)`,
    );
  }
}

/**
 * Checks that `bytes` are a PNG, JPEG or PDF attachment the service accepts, by content: images
 * are measured from their headers (so a decompression bomb is refused before any pixel is
 * expanded), then decoded in full to prove they are whole (a JPEG too large for the decoder's
 * memory by its structure); PDFs get the cover checks with the
 * attachment page limit. Throws `PdfRefusal`. Runs in the inspection worker, which bounds its
 * memory and time.
 */
export async function inspectAttachment(bytes: Uint8Array): Promise<AttachmentFacts> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length === 0) throw new PdfRefusal('is empty');
  const contentType = sniffContentType(buffer);
  if (contentType === 'application/pdf') {
    return { contentType, ...(await inspectPdf(buffer, limits.attachments.pages)) };
  }
  if (contentType === 'image/png') {
    const { bitDepth, ...size } = pngSize(buffer);
    checkSize(size, bitDepth);
    const maxChunks = limits.attachments.pngChunks;
    if (pngChunkCount(buffer, maxChunks) > maxChunks) {
      throw new PdfRefusal(
        `is a PNG of more than ${maxChunks} chunks; at most ${maxChunks} are allowed`,
      );
    }
    let pixels: PNG;
    try {
      pixels = PNG.sync.read(buffer, { checkCRC: true });
    } catch (error) {
      throw new PdfRefusal(`is not a readable PNG (${pngMessage(error)})`);
    }
    if (!pngDataComplete(buffer)) {
      throw new PdfRefusal(
        'is not a readable PNG (its image data does not hold the pixels its header declares)',
      );
    }
    // Made once here, where the pixels are decoded anyway, rather than on every report.
    return needsPrintVersion(buffer)
      ? { contentType, ...size, print: printVersionOf(buffer, pixels) }
      : { contentType, ...size };
  }
  if (contentType === 'image/jpeg') {
    const size = jpegSize(buffer);
    checkSize(size);
    const scans = jpegScans(buffer);
    if (scans > limits.attachments.jpegScans) {
      throw new PdfRefusal(
        `is a JPEG of ${scans} scans; at most ${limits.attachments.jpegScans} are allowed ` +
          '(save it as a baseline JPEG)',
      );
    }
    const need = jpegDecodeBytes(buffer);
    let decoded: { width: number; height: number; data: Uint8Array } | undefined;
    if (need !== undefined && need > limits.attachments.decodeMemoryMb * 1024 * 1024) {
      // Too large to decode here (a 24-megapixel photo): whole as far as its structure shows.
      if (!jpegWalk(buffer).ended) {
        throw new PdfRefusal('is not a readable JPEG (it ends before its image data does)');
      }
    } else {
      try {
        decoded = jpeg.decode(buffer, {
          useTArray: true,
          tolerantDecoding: false,
          maxResolutionInMP: limits.attachments.maxPixels / 1e6,
          maxMemoryUsageInMB: limits.attachments.decodeMemoryMb,
        });
      } catch (error) {
        throw new PdfRefusal(`is not a readable JPEG (${message(error)})`);
      }
    }
    // Reports embed the file as it is, through pdfkit: one larger than a page shows is printed
    // from a smaller version, made here where its pixels are decoded anyway (one too large to
    // decode here is embedded as it is); what pdfkit cannot read is printed from a version
    // without fill bytes, or refused here rather than failing every report.
    const orientation = jpegOrientation(buffer);
    const print =
      (decoded && jpegPrintVersion(decoded, orientation, buffer.length)) ?? jpegWithoutFill(buffer);
    const refusal = await pdfkitRefusal(print ?? buffer);
    if (refusal !== undefined) {
      throw new PdfRefusal(`is a JPEG that cannot be put into a report (${refusal})`);
    }
    const shown = shownSize(size, orientation);
    return print ? { contentType, ...shown, print } : { contentType, ...shown };
  }
  throw new PdfRefusal('is neither a PNG, a JPEG nor a PDF');
}

/** The PNG decoder says of a file cut short only that its stream ended with reads waiting. */
const PNG_CUT_SHORT = /read requests wait(?:i)?ng on finished stream/i;

function pngMessage(error: unknown): string {
  const text = message(error);
  return PNG_CUT_SHORT.test(text) ? 'truncated: the file ends before the image does' : text;
}

function message(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line || 'unknown error';
}
