import path from 'node:path';
import { textError } from './json-guards.js';
import { ONE_LINE_PATTERN } from './schemas.js';

const ONE_LINE = new RegExp(ONE_LINE_PATTERN, 'u');

/**
 * The title kept for an uploaded file's name: without directories (some browsers send a full
 * path), without what one-line texts refuse (ONE_LINE_PATTERN), tabs, U+FFFD (bytes of the
 * name that were not UTF-8) and what no request text may hold (`textError`: a lone surrogate,
 * which a name in UTF-16 (`filename*=utf-16le''…`) can carry), trimmed and cut to `maxChars`; `fallback` where nothing is left. A
 * file name is not typed into a field, so these characters are left out of the title rather
 * than the upload refused.
 */
export function titleFromFileName(fileName: string, maxChars: number, fallback: string): string {
  const base = path.win32.basename(path.posix.basename(fileName));
  const clean = Array.from(base)
    .filter((c) => ONE_LINE.test(c) && c !== '\t' && c !== '\uFFFD' && textError(c) === undefined)
    .join('')
    .trim();
  const title = Array.from(clean).slice(0, maxChars).join('');
  return title === '' ? fallback : title;
}
