/** The bytes `start` … `end` (both included) of a representation, as a `Range` asks for them. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What a `Range` header asks of a representation of `size` bytes (RFC 9110 §14.1.2, §14.2):
 * one range of bytes (`bytes=0-99`, `bytes=100-`, the last 100: `bytes=-100`, an end past the
 * size taken as the last byte), `'unsatisfiable'` when no byte of the range exists (`416`), or
 * `undefined` to send the whole representation — no header, another unit, a header that does
 * not parse (which the RFC lets a server ignore), and several ranges: a download client asks
 * for one, and a multipart answer would cost more than the whole file.
 */
export function requestedRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // A suffix: the last `last` bytes; asking for none of them is unsatisfiable.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  if (end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/**
 * Whether an `If-Range` lets the range apply to the representation tagged `etag` (RFC 9110
 * §13.1.5): no such header, or the same strong entity tag. A date (these downloads have no
 * Last-Modified) or another tag sends the whole representation, as the client could otherwise
 * join bytes of two different files.
 */
export function rangeStillApplies(ifRange: string | string[] | undefined, etag: string): boolean {
  return ifRange === undefined || (typeof ifRange === 'string' && ifRange.trim() === etag);
}
