/** Frame header markers (SOF0–SOF15 but DHT, JPG and DAC), which end the part pdfkit reads. */
export const SOF = new Set([
  0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf,
]);

/**
 * A JPEG whose markers before its frame header are preceded by fill bytes (extra 0xFF, which
 * the JPEG standard allows, T.81 B.1.1.2) without them, or undefined where it has none. pdfkit
 * reads the segments up to the frame header and refuses a fill byte ("Invalid JPEG"), so such a
 * photo, which decoders show, had failed every report of its dossier; the image data after the
 * header is kept as it is (PDF viewers decode it as any decoder does).
 */
export function jpegWithoutFill(bytes: Buffer): Buffer | undefined {
  const parts: Buffer[] = [bytes.subarray(0, 2)];
  let filled = false;
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    let marker = at;
    while (bytes[marker + 1] === 0xff) marker += 1;
    if (marker > at) filled = true;
    const code = bytes[marker + 1] as number;
    if (SOF.has(code) || code === 0xda) {
      parts.push(bytes.subarray(marker));
      return filled ? Buffer.concat(parts) : undefined;
    }
    const standalone = code === 0x01 || (code >= 0xd0 && code <= 0xd7);
    const end = standalone ? marker + 2 : marker + 2 + bytes.readUInt16BE(marker + 2);
    parts.push(bytes.subarray(marker, end));
    at = end;
  }
  return undefined;
}

/** Why pdfkit cannot embed a JPEG as a report would, if it cannot. pdfkit is loaded on the
 * first JPEG: the inspection worker's small heap need not hold it for PDFs and PNGs. */
export async function pdfkitRefusal(bytes: Buffer): Promise<string | undefined> {
  const { default: PDFDocument } = await import('pdfkit');
  try {
    // A page's image as a report draws one: pdfkit parses a JPEG's segments there.
    new PDFDocument({ size: [10, 10] }).image(bytes, 0, 0, { width: 1 });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
