import { withOrientationOnly } from './jpeg-orientation.js';
import { jpegHeader } from './jpeg-segments.js';

/**
 * A JPEG whose markers before its frame header are preceded by fill bytes (extra 0xFF, which
 * the JPEG standard allows, T.81 B.1.1.2) without them, or undefined where it has none. pdfkit
 * reads the segments up to the frame header and refuses a fill byte ("Invalid JPEG"), so such a
 * photo, which decoders show, had failed every report of its dossier; the image data after the
 * header is kept as it is (PDF viewers decode it as any decoder does).
 */
export function jpegWithoutFill(bytes: Buffer): Buffer | undefined {
  const header = jpegHeader(bytes);
  if (!header) return undefined;
  const { segments, frame } = header;
  const filled = frame > (segments.at(-1)?.end ?? 2) || segments.some((s) => s.start !== s.marker);
  if (!filled) return undefined;
  return Buffer.concat([
    bytes.subarray(0, 2),
    ...segments.map((s) => bytes.subarray(s.marker, s.end)),
    bytes.subarray(frame),
  ]);
}

/** Why pdfkit cannot embed a JPEG as a report would, if it cannot. pdfkit is loaded on the
 * first JPEG: the inspection worker's small heap need not hold it for PDFs and PNGs. */
export async function pdfkitRefusal(bytes: Buffer): Promise<string | undefined> {
  const { default: PDFDocument } = await import('pdfkit');
  try {
    // A page's image as a report draws one: pdfkit parses a JPEG's segments there.
    new PDFDocument({ size: [10, 10] }).image(withOrientationOnly(bytes), 0, 0, { width: 1 });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
