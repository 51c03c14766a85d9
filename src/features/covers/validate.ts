import path from 'node:path';
import type { FieldError } from '../../http/problem.js';
import { limits } from '../../limits.js';

/**
 * What is wrong with a new order, `listed`, of the covers `existing`: every listed uuid must be
 * one of them, and none listed twice. A uuid of another owner, side or organization is answered
 * like an unknown one, so the answer never tells whether it exists elsewhere.
 */
export function orderErrors(
  listed: readonly string[],
  existing: ReadonlySet<string>,
): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  listed.forEach((uuid, i) => {
    const where = `/items/${i}/uuid`;
    if (seen.has(uuid)) errors.push({ path: where, message: 'is listed more than once' });
    else if (!existing.has(uuid)) {
      errors.push({ path: where, message: 'is not a cover of this owner and side' });
    }
    seen.add(uuid);
  });
  return errors;
}

/** Control characters (tab included), the line and paragraph separators and the bidirectional
 * formatting characters that one-line texts refuse (src/http/schemas.ts), and U+FFFD (bytes of
 * the name that were not UTF-8): a file name is not typed into a field, so they are left out of
 * the title rather than the upload refused. */
const NOT_IN_TITLES = /[\p{Cc}\u2028\u2029\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069\uFFFD]/gu;

/**
 * The title kept for an uploaded file name: without directories (some browsers send a full
 * path), control or bidirectional formatting characters or surrounding spaces, cut to
 * `limits.covers.titleChars`.
 */
export function titleFromFileName(fileName: string): string {
  const base = path.win32.basename(path.posix.basename(fileName));
  const clean = base.replace(NOT_IN_TITLES, '').trim();
  const title = Array.from(clean).slice(0, limits.covers.titleChars).join('');
  return title === '' ? 'cover.pdf' : title;
}
