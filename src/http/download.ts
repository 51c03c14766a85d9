import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { StoredFileGone, type StoredBytes } from '../accounts/stored-bytes.js';
import { limits } from '../limits.js';
import { rangeStillApplies, requestedRange, type ByteRange } from './byte-range.js';
import { AppError } from './problem.js';
import type { HeaderDoc } from './schemas.js';

// Latin letters that Unicode does not decompose into a base letter and a mark.
const UNDECOMPOSED: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
};

/**
 * A name in printable ASCII, for clients that read only `filename`: accented letters lose
 * their accents (Příloha → Priloha, Straße → Strasse), anything else becomes `_`.
 */
function asciiName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæÆœŒøØłŁđĐ]/g, (c) => UNDECOMPOSED[c] ?? '_')
    .replace(/[^\x20-\x7e]|["%]/g, '_');
}

/**
 * `Content-Disposition` for a download named `title` (RFC 6266): an ASCII fallback for old
 * clients, and the exact name in UTF-8 for the others. A name is never a path: slashes and
 * backslashes (a title such as `..\..\etc/passwd`) become `_` in both.
 */
export function contentDisposition(title: string): string {
  const name = title.replace(/[/\\]/g, '_');
  const fallback = asciiName(name);
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/** What the OpenAPI document says of a download streamed from the store (`sendStored`). */
export const STREAMED_TEXT =
  `streamed from the database ${String(limits.downloads.chunkBytes / 1024)} KiB at a time as ` +
  'the client takes it; a client that stops reading is disconnected by the send deadline. ' +
  'The answer has `Accept-Ranges: bytes` and an `ETag`: a `Range` of one range of bytes ' +
  '(`bytes=0-1023`, `bytes=1024-`, `bytes=-1024`) is answered `206` with those bytes and ' +
  '`Content-Range` (with an `If-Range`, only while it is this `ETag`); a range past the end ' +
  '`416`; several ranges, or one that does not parse, the whole file.';

/** The OpenAPI answer `206` of a stored download, in the content types of its `200`. */
export function partialResponse(whole: { content: Record<string, unknown> }) {
  return {
    description: 'The bytes of the one range the `Range` header asks for.',
    headers: {
      ...STORED_DOWNLOAD_HEADERS,
      'Content-Range': { type: 'string', description: '`bytes <first>-<last>/<size>`.' },
    },
    content: whole.content,
  };
}

/** The headers of every download, as the OpenAPI document lists them. */
const DOWNLOAD_HEADERS: Record<string, HeaderDoc> = {
  'Content-Disposition': {
    type: 'string',
    description:
      '`attachment`, named in ASCII (`filename`) and exactly in UTF-8 (`filename*`, RFC 6266).',
  },
};

/** The headers of a download streamed from the store (`sendStored`), which takes ranges. */
export const STORED_DOWNLOAD_HEADERS: Record<string, HeaderDoc> = {
  ...DOWNLOAD_HEADERS,
  'Accept-Ranges': { type: 'string', description: '`bytes`.' },
  ETag: { type: 'string', description: "The file's tag: its id, quoted (its bytes never change)." },
};

/** The OpenAPI answer of a route that sends a PDF (`headers`: beyond Content-Disposition). */
export function pdfResponse(description: string, headers: Record<string, HeaderDoc> = {}) {
  return {
    description,
    headers: { ...DOWNLOAD_HEADERS, ...headers },
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  };
}

/**
 * Sends stored bytes as a private PDF download named `title`: never cached, never sniffed as
 * another type.
 */
export function sendPdf(reply: FastifyReply, title: string, bytes: Uint8Array): FastifyReply {
  return sendFile(reply, title, 'application/pdf', bytes);
}

/** The headers of a private download named `title`: never cached, never sniffed as another type. */
function downloadHeaders(reply: FastifyReply, title: string, contentType: string): FastifyReply {
  return reply
    .type(contentType)
    .header('content-disposition', contentDisposition(title))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff');
}

/** `sendPdf` for a file of any type the service has recognised (PNG, JPEG, PDF). */
export function sendFile(
  reply: FastifyReply,
  title: string,
  contentType: string,
  bytes: Uint8Array,
): FastifyReply {
  return downloadHeaders(reply, title, contentType).send(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  );
}

/** A stored file to download: its id (which names its bytes: they never change), title, type. */
export interface StoredDownload {
  id: string;
  title: string;
  contentType: string;
  bytes: StoredBytes;
}

/**
 * Sends a stored file as `sendFile` does, streamed from the store as the client takes it
 * (src/accounts/stored-bytes.ts), with its length announced from the stored size, or the one
 * range of bytes the request asks for (src/http/byte-range.ts). A stored file's bytes never
 * change, so its id is its entity tag. The first bytes are read before the status and headers
 * go out: a file deleted between its row's read and its bytes' is a 404 (it was a 500 sent with
 * the file's name, which a browser saved as the file). One deleted later cuts the download short
 * (its length announced, not reached).
 */
export async function sendStored(
  request: FastifyRequest,
  reply: FastifyReply,
  file: StoredDownload,
): Promise<FastifyReply> {
  const { size } = file.bytes;
  const etag = `"${file.id.toLowerCase()}"`;
  const { range: header, 'if-range': ifRange } = request.headers;
  const range = rangeStillApplies(ifRange, etag) ? requestedRange(header, size) : undefined;
  if (range === 'unsatisfiable') {
    throw new AppError(
      'range_not_satisfiable',
      `Range "${String(header)}" asks for no byte of the file's ${String(size)}`,
      { headers: { 'content-range': `bytes */${String(size)}` } },
    );
  }
  // A HEAD reads nothing of the file, not even the first row `open` reads (its stream would go
  // unread: head-answers.ts). An empty stream, not an empty body, keeps the file's length.
  if (request.method === 'HEAD') {
    return sendHeadersOf(reply, file, etag, range).send(Readable.from([]));
  }
  const body = await file.bytes.open(range).catch((error: unknown) => {
    throw error instanceof StoredFileGone
      ? new AppError('not_found', 'The file was deleted as it was asked for')
      : error;
  });
  return sendHeadersOf(reply, file, etag, range).send(body);
}

/** A stored file's status and headers, whole or the range asked for; the body is the caller's. */
function sendHeadersOf(
  reply: FastifyReply,
  file: StoredDownload,
  etag: string,
  range: ByteRange | undefined,
): FastifyReply {
  const { size } = file.bytes;
  downloadHeaders(reply, file.title, file.contentType)
    .header('accept-ranges', 'bytes')
    .header('etag', etag);
  if (!range) return reply.header('content-length', size);
  return reply
    .code(206)
    .header('content-range', `bytes ${String(range.start)}-${String(range.end)}/${String(size)}`)
    .header('content-length', range.end - range.start + 1);
}
