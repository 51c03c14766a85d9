import type { FastifyInstance, FastifyRequest } from 'fastify';
import { limits } from '../limits.js';
import { AppError, type FieldError } from './problem.js';
import { dottedPath, escapePointer } from './field-errors.js';
import { checkHook } from './check-hook.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A page for people, not the API: its path and query values are its own to read. */
    page?: boolean;
  }
}

const isPlainContainer = (value: unknown): value is Record<string, unknown> | unknown[] =>
  Array.isArray(value) ||
  (typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype);

/** A UTF-16 surrogate without its pair: JSON's `\\ud83d` escape can make one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What a text of a request cannot hold, or undefined. U+0000: PostgreSQL cannot store it in text
 * and SQLite would; refused on both, so both answer alike. A lone surrogate is no character:
 * SQLite and PostgreSQL store it as different replacement characters, and a PDF writer that
 * encodes the text as UTF-8 fails on it.
 */
export function textError(text: string): string | undefined {
  if (text.includes('\u0000')) return 'the character U+0000';
  if (LONE_SURROGATE.test(text)) return 'a lone UTF-16 surrogate (half of a character)';
  return undefined;
}

/**
 * The first thing about `value` (a parsed JSON body, a query or path parameters) that no route
 * accepts, or undefined: nesting deeper than `limits.jsonDepth` (code that walks a value
 * recursively, such as a merge patch, would exhaust the stack) or a text `textError` refuses, or
 * more than `limits.jsonValues` values (validation collects an error per unknown property or
 * bad item, and would spend a long time on a body of tens of thousands of them).
 * Walked without recursion, and only as deep as the limit.
 */
export function jsonGuardError(value: unknown): FieldError | undefined {
  // Each entry knows its parent and key: the pointer is spelled out only for a refusal, not for
  // every value of every request.
  interface Entry {
    value: unknown;
    parent: Entry | undefined;
    key: string;
    depth: number;
  }
  const pointerOf = (entry: Entry): string => {
    const keys: string[] = [];
    for (let at = entry; at.parent; at = at.parent) keys.push(at.key);
    return keys.reverse().reduce((pointer, key) => `${pointer}/${escapePointer(key)}`, '');
  };
  const stack: Entry[] = [{ value, parent: undefined, key: '', depth: 0 }];
  let values = 0;
  for (let next = stack.pop(); next; next = stack.pop()) {
    values += 1;
    if (values > limits.jsonValues) {
      return { path: '', message: `has more than ${String(limits.jsonValues)} values` };
    }
    if (typeof next.value === 'string') {
      const error = textError(next.value);
      if (error) return { path: pointerOf(next), message: `must not contain ${error}` };
      continue;
    }
    if (!isPlainContainer(next.value)) continue;
    if (next.depth >= limits.jsonDepth) {
      return {
        path: pointerOf(next),
        message: `is nested more than ${String(limits.jsonDepth)} levels deep`,
      };
    }
    for (const [key, child] of Object.entries(next.value)) {
      const error = textError(key);
      if (error) return { path: pointerOf(next), message: `must not have a name with ${error}` };
      stack.push({ value: child, parent: next, key, depth: next.depth + 1 });
    }
  }
  return undefined;
}

/** The parts of a request with values, named as validation errors name them. */
const PARTS = [
  ['body', 'body'],
  ['query', 'query'],
  ['params', 'path'],
] as const;

/**
 * Whether the query string of `url` decodes: every `%` starts an escape and the escapes make
 * UTF-8. The query parser reads a broken one leniently (`q=Wien%FF` searched for something else
 * and answered an empty page), where the same bytes in the path are refused.
 */
export function queryDecodes(url: string): boolean {
  const start = url.indexOf('?');
  if (start < 0) return true;
  try {
    decodeURIComponent(url.slice(start + 1));
    return true;
  } catch {
    return false;
  }
}

function checkRequest(request: FastifyRequest): void {
  if (request.routeOptions.config.page !== true && !queryDecodes(request.url)) {
    throw new AppError(
      'bad_request',
      'The query string is not valid: a bad percent-encoding, or bytes that are not UTF-8',
    );
  }
  for (const [property, part] of PARTS) {
    // A page for people (the shared dossier page) reads its path and query values itself and
    // answers a page whatever they hold: a refusal here would be an error document instead.
    if (property !== 'body' && request.routeOptions.config.page === true) continue;
    const value: unknown = request[property];
    // Parsed path and query parameters are objects of the router's and the query parser's own
    // kinds, not plain ones: their own values are what is checked.
    const error = jsonGuardError(
      property === 'body' || typeof value !== 'object' || value === null ? value : { ...value },
    );
    if (!error) continue;
    throw new AppError('validation_failed', `${dottedPath(error.path, part)} ${error.message}`, {
      errors: [error],
    });
  }
}

/** Refuses, before validation, request values too deep or with a text no store keeps (`jsonGuardError`). */
export function registerJsonGuards(app: FastifyInstance): void {
  app.addHook('preValidation', checkHook(checkRequest));
}
