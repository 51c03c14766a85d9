import { PDFHexString, PDFObjectParser } from 'pdf-lib';

/** pdf-lib's reader of a parser's bytes, as far as a hex string is read from it. */
interface ByteStream {
  done(): boolean;
  peek(): number;
  next(): number;
  offset(): number;
  assertNext(expected: number): number;
  slice(start: number, end: number): Uint8Array;
}

const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;

let installed = false;

/**
 * pdf-lib reads a hex string (`<4a4b…>`) by appending one character at a time and keeps the
 * result as it is: a chain of one string node per character, about 33 bytes of memory for each
 * byte of the file. A 7 MB file of hex strings within every count limit held about 230 MB once
 * loaded, and three of them ran the render worker out of memory in every report of their
 * dossier. Read here in one piece instead (the same characters, one byte each). It changes
 * pdf-lib for the whole process, as the stream guard does; `loadWithinLimits` installs it.
 * Idempotent. (Literal strings are cut out of their chain by pdf-lib itself, which flattens
 * them; names are looked up in a table, which does too.)
 */
export function installFlatHexStrings(): void {
  if (installed) return;
  installed = true;
  const prototype = PDFObjectParser.prototype as unknown as {
    parseHexString(this: { bytes: ByteStream }): PDFHexString;
  };
  prototype.parseHexString = function parseHexString() {
    const bytes = this.bytes;
    bytes.assertNext(LESS_THAN);
    const start = bytes.offset();
    while (!bytes.done() && bytes.peek() !== GREATER_THAN) bytes.next();
    const value = Buffer.from(bytes.slice(start, bytes.offset())).toString('latin1');
    bytes.assertNext(GREATER_THAN);
    return PDFHexString.of(value);
  };
}
