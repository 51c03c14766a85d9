import { constants, inflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFName,
  PDFNumber,
  PDFObjectStreamParser,
  PDFXRefStreamParser,
  type PDFContext,
  type PDFRawStream,
} from 'pdf-lib';
import { limits } from '../limits.js';

/** A PDF's compressed object or cross-reference streams expand beyond the limit. */
export class StreamExpansionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamExpansionError';
  }
}

const FLATE = PDFName.of('FlateDecode');

/** Bytes each document being parsed has expanded so far (one pdf-lib context per document). */
const expanded = new WeakMap<PDFContext, number>();

/** pdf-lib replaces an error thrown while it parses an object with a generic "invalid object"
 * one, so the guard's reason is also left here for whoever called `PDFDocument.load`. */
let lastRefusal: string | undefined;

/** The reason the guard last refused a stream, if any since the previous call; clears it. */
export function takeExpansionRefusal(): string | undefined {
  const reason = lastRefusal;
  lastRefusal = undefined;
  return reason;
}

function refuse(reason: string): never {
  lastRefusal = reason;
  throw new StreamExpansionError(reason);
}

function filtersOf(stream: PDFRawStream): PDFName[] {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  if (filter === undefined) return [];
  if (filter instanceof PDFName) return [filter];
  if (filter instanceof PDFArray) {
    return filter.asArray().map((_, i) => filter.lookup(i, PDFName));
  }
  return refuse('has an object stream with an invalid /Filter');
}

/** The stream's expanded size, or Infinity beyond `room`; found by zlib with a hard output cap. */
function expandedSize(stream: PDFRawStream, room: number): number {
  let data: Uint8Array = stream.contents;
  for (const filter of filtersOf(stream)) {
    if (filter !== FLATE) {
      refuse(
        `compresses its object streams with ${filter.asString()}; only /FlateDecode is accepted`,
      );
    }
    try {
      // Sync flush: a stream without its final block yields what it has, as pdf-lib's does.
      data = inflateSync(data, {
        maxOutputLength: Math.max(1, room),
        finishFlush: constants.Z_SYNC_FLUSH,
      });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') return Infinity;
      throw new Error('a compressed object stream is corrupt');
    }
  }
  return data.length;
}

function charge(stream: PDFRawStream): void {
  const context = stream.dict.context;
  const max = limits.covers.pdfExpandedStreamBytes;
  const used = expanded.get(context) ?? 0;
  const total = used + expandedSize(stream, max - used);
  if (total > max) {
    refuse(`expands its compressed object streams beyond ${max} bytes`);
  }
  expanded.set(context, total);
}

/** Objects each document being parsed holds in its object streams so far. */
const streamObjects = new WeakMap<PDFContext, number>();

/** Counts an object stream's objects (its /N) against `limits.covers.pdfObjects`, with those
 * outside object streams that `countObjects` found before parsing. */
function chargeObjects(stream: PDFRawStream): void {
  const context = stream.dict.context;
  const n = stream.dict.lookup(PDFName.of('N'));
  // pdf-lib reads objects while its index is below /N: a negative /N (or one not a number)
  // holds none, and must not take others off the count; a fraction holds its next whole number.
  const said = n instanceof PDFNumber ? n.asNumber() : 0;
  const count = Number.isNaN(said) ? 0 : Math.max(0, Math.ceil(said));
  const total = (streamObjects.get(context) ?? pendingObjects) + count;
  const max = limits.covers.pdfObjects;
  if (total > max)
    refuse(`has more than ${String(max)} objects; at most ${String(max)} are allowed`);
  streamObjects.set(context, total);
}

/** The objects outside object streams of the document about to be parsed (`countObjects`). */
let pendingObjects = 0;

const ENDOBJ = Buffer.from('endobj', 'latin1');

/** An object's header, `12 0 obj`: what the parser reads an object by (`endobj` may be left out). */
const OBJECT_HEADER = /(?<![0-9A-Za-z.+-])\d+[\0\t\n\f\r ]+\d+[\0\t\n\f\r ]+obj/g;

/**
 * The objects of a PDF outside its object streams, as its bytes show them — its `endobj`
 * keywords or its object headers, whichever are more (pdf-lib does not need an object's
 * `endobj`: 300,000 objects without one had passed a count of `endobj` alone) — before anything
 * parses it: a file of tiny objects is refused without building them. The count is also where
 * the objects of its object streams are added while it is parsed. What still hides from it (an
 * object header broken by comments) is counted once parsed (`loadWithinLimits`).
 */
export function countObjects(bytes: Buffer): number {
  let ends = 0;
  for (let at = bytes.indexOf(ENDOBJ); at >= 0; at = bytes.indexOf(ENDOBJ, at + ENDOBJ.length)) {
    ends += 1;
  }
  const headers = bytes.toString('latin1').match(OBJECT_HEADER)?.length ?? 0;
  pendingObjects = Math.max(ends, headers);
  return pendingObjects;
}

let installed = false;

/**
 * pdf-lib expands every compressed object stream and cross-reference stream completely while it
 * loads a document, with no cap, into buffers outside the JavaScript heap (so a worker's heap
 * limit does not stop them): a 25 MB upload of nested /FlateDecode could expand to gigabytes and
 * take the whole process down. This puts a check in front of both parsers: each stream is first
 * inflated by zlib with a hard output cap, and one document's streams together may expand to at
 * most `limits.covers.pdfExpandedStreamBytes`. Legitimate documents stay far below; their streams
 * hold only object dictionaries. It changes pdf-lib for the whole process; `loadWithinLimits`
 * installs it, and the server runs that only in its workers (inspection, render). Idempotent.
 */
export function installPdfStreamGuard(): void {
  if (installed) return;
  installed = true;
  const objectStreamParser = PDFObjectStreamParser.forStream;
  PDFObjectStreamParser.forStream = (stream, shouldWaitForTick) => {
    charge(stream);
    chargeObjects(stream);
    return objectStreamParser(stream, shouldWaitForTick);
  };
  const xrefStreamParser = PDFXRefStreamParser.forStream;
  PDFXRefStreamParser.forStream = (stream) => {
    charge(stream);
    return xrefStreamParser(stream);
  };
}
