import { PDFDocument, type LoadOptions } from 'pdf-lib';
import { limits } from '../limits.js';
import { installFlatHexStrings } from './pdf-hex-strings.js';
import { countObjects, installPdfStreamGuard, takeExpansionRefusal } from './pdf-stream-guard.js';
import { checkedPageCount, holdsMoreValues, trialMerge } from './pdf-structure.js';

/** What the service keeps about an accepted PDF. */
export interface PdfFacts {
  pages: number;
  /** What a report's copy of the file costs, in objects (`trialMerge`). */
  copyWeight: number;
}

/** The file is not a PDF the service accepts; `reason` completes the sentence "cover …". */
export class PdfRefusal extends Error {
  constructor(
    readonly reason: string,
    /** Refused for the check's own limits (its time, its memory), which depend on the load as
     * much as on the file: the same file may pass another time. */
    readonly limitReached = false,
  ) {
    super(`cover ${reason}`);
    this.name = 'PdfRefusal';
  }
}

// Readers look for the header in the first and the end-of-file marker in the last kilobyte.
const MARKER_WINDOW = 1024;
const HEADER = Buffer.from('%PDF-', 'latin1');
const EOF_MARKER = Buffer.from('%%EOF', 'latin1');

/**
 * Parses a PDF with pdf-lib within the limits of what a file may hold: at most
 * `limits.covers.pdfObjects` objects, counted in its bytes before parsing and in its object
 * streams while it is parsed, those streams expanded under a cap (`pdf-stream-guard.ts`), and at
 * most `limits.covers.pdfValues` values in its arrays and dictionaries.
 * Throws `PdfRefusal` otherwise. Uploads are checked so; a report loads stored files so too, in
 * case one was stored before a check existed.
 */
export async function loadWithinLimits(
  bytes: Uint8Array,
  options: LoadOptions,
): Promise<PDFDocument> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  installPdfStreamGuard();
  installFlatHexStrings();
  takeExpansionRefusal();
  const maxObjects = limits.covers.pdfObjects;
  const objects = countObjects(buffer);
  if (objects > maxObjects) {
    throw new PdfRefusal(
      `has ${String(objects)} objects; at most ${String(maxObjects)} are allowed`,
    );
  }
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(buffer, options);
  } catch (error) {
    const expansion = takeExpansionRefusal();
    if (expansion !== undefined) throw new PdfRefusal(expansion);
    throw new PdfRefusal(`is not a readable PDF (${firstLine(error)})`);
  }
  // Objects the count of the bytes could not see (headers broken by comments), once built.
  const built = document.context.enumerateIndirectObjects().length;
  if (built > maxObjects) {
    throw new PdfRefusal(`has ${String(built)} objects; at most ${String(maxObjects)} are allowed`);
  }
  const maxValues = limits.covers.pdfValues;
  if (holdsMoreValues(document, maxValues)) {
    throw new PdfRefusal(
      `has more than ${String(maxValues)} values in its arrays and dictionaries; at most ${String(maxValues)} are allowed`,
    );
  }
  return document;
}

/**
 * Checks that `bytes` are a whole, readable, unencrypted PDF of 1 to `maxPages` pages and at
 * most `limits.covers.pdfObjects` objects, with a page tree walked once (`pdf-structure.ts`), that
 * a report can put in (a trial copy), by parsing it with pdf-lib: a file's name and declared type
 * say nothing. Throws `PdfRefusal` otherwise. Runs in the inspection worker (`pdf-worker.ts`),
 * which bounds its memory and time.
 *
 * pdf-lib forgives a lot (it reads objects one after another and ignores the cross-reference
 * table), so a cut-off file can still parse. The end-of-file marker catches that: a truncated
 * upload is refused even when what arrived happens to parse.
 */
export async function inspectPdf(
  bytes: Uint8Array,
  maxPages: number = limits.covers.pages,
): Promise<PdfFacts> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length === 0) throw new PdfRefusal('is empty');
  if (buffer.subarray(0, MARKER_WINDOW).indexOf(HEADER) < 0) {
    throw new PdfRefusal('is not a PDF (no %PDF- header)');
  }
  if (buffer.subarray(-MARKER_WINDOW).lastIndexOf(EOF_MARKER) < 0) {
    throw new PdfRefusal('is not a complete PDF (no %%EOF marker at its end: truncated?)');
  }

  // Encryption is checked below: pdf-lib's own error for it cannot be told apart reliably.
  const document = await loadWithinLimits(buffer, {
    throwOnInvalidObject: true,
    updateMetadata: false,
    ignoreEncryption: true,
  });

  // An encrypted cover could not be read when it is put into a report.
  if (document.isEncrypted) throw new PdfRefusal('is encrypted');
  let pages: number | string;
  try {
    pages = checkedPageCount(document, maxPages);
  } catch (error) {
    throw new PdfRefusal(`has no readable page tree (${firstLine(error)})`);
  }
  if (typeof pages === 'string') throw new PdfRefusal(pages);
  if (pages < 1) throw new PdfRefusal('has no pages');
  const copyWeight = await trialMerge(document);
  if (typeof copyWeight === 'string') throw new PdfRefusal(copyWeight);
  return { pages, copyWeight };
}

/** pdf-lib's messages can be long; the first line, shortened, is enough for a client. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line || 'unknown error';
}
