import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/problem.js';
import { escapePointer, invalidField } from '../../http/field-errors.js';
import { limits } from '../../limits.js';
import type { Upload } from './covers.js';
import { UploadBody } from './upload-body.js';

/** The one form field of an upload. */
export const COVER_FIELD = 'cover';

/** Options for @fastify/multipart on the upload route: one file, and nothing else to speak of. */
export const MULTIPART_OPTIONS = {
  limits: {
    fileSize: limits.covers.fileBytes,
    // Room for one unwanted part beyond the file, so it can be named in the answer; a third
    // part stops parsing.
    files: 2,
    fields: 1,
    parts: 2,
    fieldSize: 1024,
    // Not enforced by busboy (a longer name arrives whole); answers quote at most this much.
    fieldNameSize: 100,
    headerPairs: 20,
  },
  throwFileSizeLimit: true,
};

const NOT_A_FILE = 'must be a file (a part with a filename)';

const MULTIPART_TYPE = /^multipart\/form-data\s*(;|$)/i;

// A refused upload may leave much of its body unread; the connection is closed after the answer
// rather than kept alive to read and throw away up to 25 MiB (or wait for it).
const CLOSE = { connection: 'close' };

// One answer whichever limit an upload passes, the file's or the body's, and whether the body
// declared its length (refused before reading) or not (refused when the bytes are counted).
const tooLarge = () =>
  new AppError(
    'payload_too_large',
    `The upload exceeds its limit: the cover may have ${limits.covers.fileBytes} bytes ` +
      `(${limits.covers.fileBytes / (1024 * 1024)} MiB), the whole request body ` +
      `${limits.covers.requestBytes} bytes`,
    { headers: CLOSE },
  );

/** A refusal of `field` (`undefined`: of the whole form) for `message`. */
const invalid = (field: string | undefined, message: string) =>
  invalidField(field === undefined ? '' : `/${escapePointer(field)}`, message, {
    detail:
      field === undefined
        ? message.charAt(0).toUpperCase() + message.slice(1)
        : `${field} ${message}`,
    headers: CLOSE,
  });

/** A part that is not `cover`, named in the answer as far as it has a reasonable name. */
function unwantedPart(name: string | undefined): AppError {
  const allowed = `is not allowed; send only "${COVER_FIELD}"`;
  if (name === undefined || name === '') {
    return invalid(undefined, `a part without a name ${allowed}`);
  }
  const chars = Array.from(name);
  const max = MULTIPART_OPTIONS.limits.fieldNameSize;
  return invalid(chars.length > max ? `${chars.slice(0, max).join('')}…` : name, allowed);
}

/**
 * Refuses, before any of the body is read, what cannot be an upload: another content type (415)
 * or a declared length beyond the body limit, the file's plus the form's own overhead (413).
 */
export function checkUploadRequest(request: FastifyRequest): void {
  const type = request.headers['content-type'];
  if (type === undefined || !MULTIPART_TYPE.test(type)) {
    throw new AppError(
      'unsupported_media_type',
      `Content-Type must be multipart/form-data, with the PDF in the file field "${COVER_FIELD}"`,
      { headers: CLOSE },
    );
  }
  const length = Number(request.headers['content-length']);
  if (length > limits.covers.requestBytes) throw tooLarge();
}

/** Errors of @fastify/multipart and busboy while reading the form, in the service's terms. */
function formError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return invalid(undefined, `the form must hold one part only, the file field "${COVER_FIELD}"`);
  }
  if (code === 'FST_PROTO_VIOLATION')
    return invalid(undefined, 'the form has a forbidden field name');
  // Whatever else goes wrong here is the body not being well-formed multipart.
  const reason = error instanceof Error ? error.message : 'unreadable';
  return new AppError('bad_request', `The multipart body is malformed: ${reason}`, {
    headers: CLOSE,
  });
}

/** The file's bytes; stops at the first byte beyond the limit instead of reading on. */
async function readFile(file: MultipartFile['file']): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of file) {
    if (file.truncated) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  if (file.truncated) throw tooLarge();
  return Buffer.concat(chunks);
}

/**
 * Reads the form: exactly one part, the file field `cover`, whose bytes are kept in memory (at
 * most `limits.covers.fileBytes`), in a body of at most `limits.covers.requestBytes`, however
 * framed. Its declared type and name are not trusted; the caller checks the bytes.
 */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  const body = new UploadBody(request.raw, limits.covers.requestBytes, tooLarge);
  let upload: Upload | undefined;
  try {
    for await (const part of request.parts()) {
      // busboy leaves the name undefined when the part's header has none.
      if (part.fieldname !== COVER_FIELD) throw unwantedPart(part.fieldname);
      if (part.type !== 'file') throw invalid(COVER_FIELD, NOT_A_FILE);
      // busboy also takes a part without a file name for a file when it is typed
      // application/octet-stream, and then gives it no name, whatever the typings say.
      const fileName = part.filename as string | undefined;
      if (fileName === undefined) throw invalid(COVER_FIELD, NOT_A_FILE);
      if (upload) throw invalid(COVER_FIELD, 'must be sent once');
      upload = { fileName, bytes: await readFile(part.file) };
    }
    // Nothing is taken before the whole body is in and within the limit.
    await body.end();
  } catch (error) {
    throw formError(error);
  }
  // Parts of other names were refused above, by name; what is left is a part the form parser
  // skipped for not being a form field at all.
  if (body.hasSeveralParts) {
    throw invalid(
      undefined,
      `the form has a part that is not a form field (Content-Disposition: form-data with a ` +
        `name); send only "${COVER_FIELD}"`,
    );
  }
  if (!upload) throw invalid(COVER_FIELD, 'is required');
  return upload;
}
