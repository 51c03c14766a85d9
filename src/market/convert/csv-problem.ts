import fs from 'node:fs';
import zlib from 'node:zlib';

/**
 * What makes a CSV file unreadable, said so that a person can find and mend it: a file that is
 * not UTF-8, the first line whose number of fields differs from the header's, or a quoted field
 * never closed; undefined when none of these is found. DuckDB's reader refuses such a file as a
 * whole with advice about its own options, which the command line does not have.
 */
export async function csvProblem(
  file: string,
  options: { gzip: boolean; delimiter: string },
): Promise<string | undefined> {
  const raw = fs.createReadStream(file);
  const stream = options.gzip ? raw.pipe(zlib.createGunzip()) : raw;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const delimiter = options.delimiter.charCodeAt(0);
  const QUOTE = 34;
  const NEWLINE = 10;
  const RETURN = 13;
  let line = 1;
  let fields = 1;
  let quoted = false;
  let quoteLine = 0;
  let header: number | undefined;
  let empty = true;
  const endOfRow = (): string | undefined => {
    if (header === undefined) header = fields;
    else if (!empty && fields !== header) {
      return `line ${String(line)} has ${String(fields)} fields, the header ${String(header)}`;
    }
    fields = 1;
    empty = true;
    return undefined;
  };
  try {
    for await (const chunk of stream) {
      let text: string;
      try {
        text = decoder.decode(chunk as Buffer, { stream: true });
      } catch {
        return 'it is not UTF-8 text, which DVF files are (convert it first, e.g. iconv -f latin1 -t utf-8)';
      }
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === QUOTE) {
          quoted = !quoted;
          if (quoted) quoteLine = line;
          empty = false;
        } else if (quoted) {
          if (c === NEWLINE) line += 1;
        } else if (c === delimiter) {
          fields += 1;
          empty = false;
        } else if (c === NEWLINE || c === RETURN) {
          // \r\n is one line end; a lone \r is one too.
          if (c === RETURN && text.charCodeAt(i + 1) === NEWLINE) i += 1;
          const problem = endOfRow();
          if (problem) return problem;
          line += 1;
        } else {
          empty = false;
        }
      }
    }
  } catch (error) {
    return `cannot be read (${(error as Error).message})`;
  } finally {
    raw.destroy();
  }
  if (quoted) return `a quoted field opened on line ${String(quoteLine)} is never closed`;
  return endOfRow();
}
