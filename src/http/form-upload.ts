import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkHook } from './check-hook.js';
import { AppError } from './problem.js';
import { escapePointer, invalidField } from './field-errors.js';
import { textError } from './json-guards.js';
import { validatorCompiler } from './validation.js';
import { limits } from '../limits.js';
import { UploadBody } from './upload-body.js';
import { installMultipartPauseFix } from './multipart-pause-fix.js';
import { answerClaim, type AnswerClaim } from './answer-deadline.js';

/**
 * An upload form: one file field and a few optional text fields, nothing else. Covers have the
 * file alone (`cover`, features/covers/cover-form.ts); dossier attachments a `file` with a
 * `type` and a `title`.
 */
export interface FormSpec {
  fileField: string;
  textFields: readonly string[];
  /** The file's and the whole body's limits. */
  fileBytes: number;
  requestBytes: number;
  /** What the file is called in the size refusal ("the cover may have …"). */
  fileNoun: string;
  /** What the file must be, for the 415 answer ("the PDF", "the PNG, JPEG or PDF"). */
  fileWhat: string;
}

/** A form as read: the file and the text fields that were sent. */
export interface FormUpload {
  fileName: string;
  bytes: Buffer;
  fields: Record<string, string>;
}

/** Options for @fastify/multipart on an upload route: one file, the text fields, little else. */
function multipartOptions(spec: FormSpec) {
  const wanted = 1 + spec.textFields.length;
  return {
    limits: {
      fileSize: spec.fileBytes,
      // Room for one unwanted part beyond the form, so it can be named in the answer; the next
      // part stops parsing.
      files: 2,
      fields: spec.textFields.length + 1,
      parts: wanted + 1,
      fieldSize: 1024,
      // Not enforced by busboy (a longer name arrives whole); answers quote at most this much.
      fieldNameSize: limits.uploads.partNameChars,
      headerPairs: 20,
    },
    throwFileSizeLimit: true,
  };
}

const NOT_A_FILE = 'must be a file (a part with a filename)';

const MULTIPART_TYPE = /^multipart\/form-data\s*(;|$)/i;

// A refused upload may leave much of its body unread; the connection is closed after the answer
// rather than kept alive to read and throw away up to 25 MiB (or wait for it).
const CLOSE = { connection: 'close' };

// One answer whichever limit an upload passes, the file's or the body's, and whether the body
// declared its length (refused before reading) or not (refused when the bytes are counted).
const tooLarge = (spec: FormSpec) => () =>
  new AppError(
    'payload_too_large',
    `The upload exceeds its limit: ${spec.fileNoun} may have ${spec.fileBytes} bytes ` +
      `(${spec.fileBytes / (1024 * 1024)} MiB), the whole request body ` +
      `${spec.requestBytes} bytes`,
    { headers: CLOSE },
  );

/** A refusal of `field` (`undefined`: of the whole form) for `message`. */
const REPLACEMENT = '\uFFFD';
const NOT_UTF8 =
  'must be UTF-8 text (bytes that are not UTF-8, or the replacement character U+FFFD, are refused)';

const invalid = (field: string | undefined, message: string) =>
  invalidField(field === undefined ? '' : `/${escapePointer(field)}`, message, {
    detail:
      field === undefined
        ? message.charAt(0).toUpperCase() + message.slice(1)
        : `${field} ${message}`,
    headers: CLOSE,
  });

const fieldList = (spec: FormSpec) =>
  [spec.fileField, ...spec.textFields].map((name) => `"${name}"`).join(', ');

const sendOnly = (spec: FormSpec) =>
  spec.textFields.length === 0
    ? `send only "${spec.fileField}"`
    : `send only the fields ${fieldList(spec)}`;

/** A part the form does not have, named in the answer as far as it has a reasonable name. */
function unwantedPart(spec: FormSpec, name: string | undefined): AppError {
  const allowed = `is not allowed; ${sendOnly(spec)}`;
  if (name === undefined || name === '') {
    return invalid(undefined, `a part without a name ${allowed}`);
  }
  const chars = Array.from(name);
  const max = limits.uploads.partNameChars;
  return invalid(chars.length > max ? `${chars.slice(0, max).join('')}…` : name, allowed);
}

/**
 * Refuses, before any of the body is read, what cannot be an upload: another content type (415)
 * or a declared length beyond the body limit, the file's plus the form's own overhead (413).
 */
function checkFormRequest(spec: FormSpec, request: FastifyRequest): void {
  const type = request.headers['content-type'];
  if (type === undefined || !MULTIPART_TYPE.test(type)) {
    throw new AppError(
      'unsupported_media_type',
      `Content-Type must be multipart/form-data, with ${spec.fileWhat} in the file field ` +
        `"${spec.fileField}"`,
      { headers: CLOSE },
    );
  }
  const length = Number(request.headers['content-length']);
  if (length > spec.requestBytes) throw tooLarge(spec)();
}

/** Errors of @fastify/multipart and busboy while reading the form, in the service's terms. */
function formError(spec: FormSpec, error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(spec)();
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return invalid(
      undefined,
      spec.textFields.length === 0
        ? `the form must hold one part only, the file field "${spec.fileField}"`
        : `the form may hold only the fields ${fieldList(spec)}, each once`,
    );
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
async function readFile(spec: FormSpec, file: MultipartFile['file']): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of file) {
    if (file.truncated) throw tooLarge(spec)();
    chunks.push(chunk as Buffer);
  }
  if (file.truncated) throw tooLarge(spec)();
  return Buffer.concat(chunks);
}

/**
 * Reads the form: the file field (its bytes kept in memory, at most `spec.fileBytes`) and the
 * text fields of `spec`, each at most once, nothing else, in a body of at most
 * `spec.requestBytes`, however framed. The file's declared type and name are not trusted; the
 * caller checks the bytes.
 */
export async function readForm(spec: FormSpec, request: FastifyRequest): Promise<FormUpload> {
  const wanted = 1 + spec.textFields.length;
  const body = new UploadBody(request.raw, spec.requestBytes, tooLarge(spec), wanted);
  let file: { fileName: string; bytes: Buffer } | undefined;
  const fields: Record<string, string> = {};
  let parts = 0;
  try {
    for await (const part of request.parts()) {
      parts += 1;
      const name = part.fieldname as string | undefined;
      if (name !== undefined && spec.textFields.includes(name)) {
        if (part.type !== 'field') throw invalid(name, 'must be a text field, not a file');
        if (Object.hasOwn(fields, name)) throw invalid(name, 'must be sent once');
        const value = String(part.value);
        // The form parser decodes text fields leniently, turning bytes that are not UTF-8 into
        // U+FFFD; stored, that is text lost without anyone being told.
        if (value.includes(REPLACEMENT)) throw invalid(name, NOT_UTF8);
        // A part may declare another charset (UTF-16), in which a lone surrogate or U+0000 is
        // written: refused as in a JSON body (`textError`), where the stores would differ.
        const refused = textError(value);
        if (refused !== undefined) throw invalid(name, `must not hold ${refused}`);
        fields[name] = value;
        continue;
      }
      // busboy leaves the name undefined when the part's header has none.
      if (name !== spec.fileField) throw unwantedPart(spec, name);
      if (part.type !== 'file') throw invalid(spec.fileField, NOT_A_FILE);
      // busboy also takes a part without a file name for a file when it is typed
      // application/octet-stream, and then gives it no name, whatever the typings say.
      const fileName = part.filename as string | undefined;
      if (fileName === undefined) throw invalid(spec.fileField, NOT_A_FILE);
      if (file) throw invalid(spec.fileField, 'must be sent once');
      file = { fileName, bytes: await readFile(spec, part.file) };
    }
    // Nothing is taken before the whole body is in and within the limit.
    await body.end();
  } catch (error) {
    body.stop();
    throw formError(spec, error);
  }
  // Parts of other names were refused above, by name; what is left is a part the form parser
  // skipped for not being a form field at all.
  if (body.hasPartsBeyond(parts)) {
    throw invalid(
      undefined,
      `the form has a part that is not a form field (Content-Disposition: form-data with a ` +
        `name, and a file name without line breaks); ${sendOnly(spec)}`,
    );
  }
  if (!file) throw invalid(spec.fileField, 'is required');
  return { ...file, fields };
}

/** An upload whose body has not been read: the bytes it may take, and how to read it. */
export interface PendingUpload<T> {
  /** Its declared length, else the most a body of its form may have (chunked). */
  declaredBytes: number;
  /** Claimed before anything is stored: refused once the deadline has answered the request. */
  answer: AnswerClaim;
  read(): Promise<T>;
}

/** The form upload of `request` of form `spec`, not read yet. */
export function pendingForm(spec: FormSpec, request: FastifyRequest): PendingUpload<FormUpload> {
  const declared = Number(request.headers['content-length']);
  return {
    // The length was checked against the form's limit before the handler ran.
    declaredBytes: Number.isSafeInteger(declared) && declared >= 0 ? declared : spec.requestBytes,
    answer: answerClaim(request),
    read: () => readForm(spec, request),
  };
}

/**
 * Declares the upload route of `spec` in a scope of its own, so that it alone accepts multipart:
 * every other route still refuses multipart bodies with 415. What cannot be an upload is refused
 * before any of the body is read; the handler reads and checks the body itself (`readForm`), so
 * the body's schema is there for the OpenAPI document only.
 */
export function uploadScope(
  app: FastifyInstance,
  spec: FormSpec,
  declare: (scope: FastifyInstance) => void,
): void {
  installMultipartPauseFix();
  void app.register(async (scope) => {
    await scope.register(multipart, multipartOptions(spec));
    scope.setValidatorCompiler((route) =>
      route.httpPart === 'body' ? () => true : validatorCompiler(route),
    );
    scope.addHook(
      'onRequest',
      checkHook((request) => checkFormRequest(spec, request)),
    );
    declare(scope);
  });
}
