/** Frame header markers (SOF0–SOF15 but DHT, JPG and DAC), which end the part pdfkit reads. */
export const SOF = new Set([
  0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf,
]);

/** A marker segment of a JPEG's header: its code and where its bytes lie. */
export interface Segment {
  code: number;
  /** The first fill byte before its marker (extra 0xFF, T.81 B.1.1.2), else `marker`. */
  start: number;
  /** The 0xFF of its marker. */
  marker: number;
  /** Just past its last byte. */
  end: number;
}

/**
 * The segments of a JPEG before its frame header or first scan, and where that marker lies;
 * undefined where the header does not reach one (not a JPEG, or cut short). A walk of the
 * header's lengths only: bounded by its size, whatever the segments hold.
 */
export function jpegHeader(bytes: Buffer): { segments: Segment[]; frame: number } | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  const segments: Segment[] = [];
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    let marker = at;
    while (bytes[marker + 1] === 0xff) marker += 1;
    const code = bytes[marker + 1] as number;
    if (SOF.has(code) || code === 0xda) return { segments, frame: marker };
    const standalone = code === 0x01 || (code >= 0xd0 && code <= 0xd7);
    if (!standalone && marker + 4 > bytes.length) return undefined;
    const end = standalone ? marker + 2 : marker + 2 + bytes.readUInt16BE(marker + 2);
    if (end > bytes.length) return undefined;
    segments.push({ code, start: at, marker, end });
    at = end;
  }
  return undefined;
}
