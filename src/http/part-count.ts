import { busboyModule } from './busboy-internals.js';

/** The form parser's own reader of a header's parameters (`@fastify/busboy`). */
type ParseParams = (header: string) => (string | [string, string])[];

const parseParams = busboyModule('lib/utils/parseParams.js') as ParseParams;

/** The boundary of a multipart Content-Type, read as the form parser reads it. */
export function multipartBoundary(contentType: string): string | undefined {
  for (const param of parseParams(contentType)) {
    if (Array.isArray(param) && /^boundary$/i.test(param[0]) && param[1] !== '') return param[1];
  }
  return undefined;
}

const CRLF = Buffer.from('\r\n', 'latin1');
const DASH = 0x2d;

/**
 * Counts a multipart body's parts as its form parser (`@fastify/busboy`'s Dicer) delimits them:
 * a part follows each delimiter (CRLF, `--`, the boundary; the body's first line needs no CRLF)
 * that is not the close delimiter (one followed by `--`), and nothing after the close delimiter
 * counts. The parser drops a part that is not a form field without a word; this count tells
 * there was one. It looks for the delimiter with `Buffer.indexOf` and stops once the count
 * passes `max`: counting with more parsers of the parser's own kind cost each byte of a body of
 * many tiny parts as much again per parser.
 */
export class PartCount {
  /** Parts seen, up to the first beyond `max`. */
  count = 0;
  private readonly delimiter: Buffer;
  /** The end of the bytes before, that may hold the start of a delimiter; at first, the CRLF
   * the body's first delimiter goes without. */
  private carry: Buffer = CRLF;
  private closed = false;

  constructor(
    boundary: string,
    private readonly max: number,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  write(chunk: Buffer): void {
    if (this.closed || this.count > this.max) return;
    const data = Buffer.concat([this.carry, chunk]);
    let from = 0;
    for (;;) {
      const at = data.indexOf(this.delimiter, from);
      if (at < 0) break;
      const after = at + this.delimiter.length;
      // Whether it closes the body shows in the two bytes after it.
      if (after + 2 > data.length) {
        this.carry = Buffer.from(data.subarray(at));
        return;
      }
      if (data[after] === DASH && data[after + 1] === DASH) {
        this.closed = true;
        return;
      }
      this.count += 1;
      if (this.count > this.max) return;
      from = after;
    }
    const keep = Math.min(data.length - from, this.delimiter.length - 1);
    this.carry = Buffer.from(data.subarray(data.length - keep));
  }
}
