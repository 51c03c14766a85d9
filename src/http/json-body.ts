import type { FastifyInstance } from 'fastify';
import { AppError } from './problem.js';

/** Methods whose requests carry no meaningful body (RFC 9110 gives them no body semantics). */
const BODYLESS_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses bytes that are not UTF-8 instead of turning them into U+FFFD: a replacement character
 * stored in a title is data lost without anyone being told. A leading byte order mark is skipped.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Charsets a JSON body may declare: UTF-8 under its names in use, and ASCII, a subset of it.
 * JSON exchanged between systems is UTF-8 (RFC 8259 §8.1); a body declared as another charset
 * (ISO-8859-1, UTF-16) would be read as UTF-8 regardless, so it is refused as sent.
 */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

/** The `charset` parameter of a Content-Type, lower case, without quotes; `undefined` if none. */
export function declaredCharset(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? '').toLowerCase() : undefined;
}

/**
 * The JSON body parser: Fastify's own (prototype poisoning refused), except that an empty body
 * on a method without body semantics is no body at all. Client libraries of the original
 * service send `Content-Type: application/json` with an empty body on every DELETE; that is not
 * malformed JSON. On POST, PUT and PATCH an empty body stays `400 invalid_json`, as do bytes
 * that are not UTF-8.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  registerJsonType(app, 'application/json');
}

/** The JSON media types taken on some methods only, by method (`registerJsonType`). */
const typesByMethod = new Map<string, Set<string>>();

/** The JSON media types a request of `method` may send: application/json, and those registered. */
export function jsonTypesOf(method: string): string[] {
  return ['application/json', ...(typesByMethod.get(method) ?? [])];
}

/**
 * Parses bodies of `contentType` as the JSON body parser above does, on requests of `methods`
 * only (a merge patch is a PATCH's body: elsewhere it is `415`, as the OpenAPI document says).
 */
export function registerJsonType(
  app: FastifyInstance,
  contentType: string,
  methods?: readonly string[],
): void {
  for (const method of methods ?? []) {
    const types = typesByMethod.get(method) ?? new Set<string>();
    typesByMethod.set(method, types.add(contentType));
  }
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(contentType, { parseAs: 'buffer' }, (request, body, done) => {
    if (methods && !methods.includes(request.method)) {
      done(
        new AppError(
          'unsupported_media_type',
          `Content-Type ${contentType} is taken by ${methods.join(', ')} only; send application/json`,
        ),
      );
      return;
    }
    const charset = declaredCharset(request.headers['content-type']);
    if (charset !== undefined && !UTF8_CHARSETS.has(charset)) {
      done(
        new AppError(
          'unsupported_media_type',
          `Content-Type declares charset "${charset}": JSON bodies are UTF-8 (RFC 8259)`,
        ),
      );
      return;
    }
    let text: string;
    try {
      text = typeof body === 'string' ? body : UTF8.decode(body);
    } catch {
      done(new AppError('invalid_json', 'Body is not valid UTF-8 (RFC 8259 requires it)'));
      return;
    }
    if (text === '' && BODYLESS_METHODS.has(request.method)) {
      done(null, undefined);
      return;
    }
    void parseJson(request, text, (error, value) => {
      if (error && isPlainJson(text)) {
        // Well-formed JSON refused for its keys: say so, not that it is malformed.
        done(
          new AppError(
            'invalid_json',
            'Body has a "__proto__" or "constructor"."prototype" key, which is refused ' +
              '(prototype poisoning)',
          ),
        );
        return;
      }
      done(error, value);
    });
  });
}

/** Whether `text` parses as JSON at all (asked only of a body the parser refused). */
function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
