import path from 'node:path';
import { ATTACHMENT_TYPES, type AttachmentType } from '../../accounts/tables.js';
import type { FieldError } from '../../http/problem.js';
import { BLANK_MESSAGE, ONE_LINE_MESSAGE, ONE_LINE_PATTERN } from '../../http/schemas.js';
import { limits } from '../../limits.js';

const ONE_LINE = new RegExp(ONE_LINE_PATTERN, 'u');

/** The form's text fields, checked as a JSON body's would be: `type` and an optional `title`. */
export interface AttachmentFields {
  type: AttachmentType;
  title: string | undefined;
}

/** The text fields of an upload form, or the errors naming each wrong one. */
export function checkFields(
  fields: Record<string, string>,
): { ok: AttachmentFields } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const type = ATTACHMENT_TYPES.find((t) => t === fields.type);
  if (fields.type === undefined) errors.push({ path: '/type', message: 'is required' });
  else if (type === undefined) {
    errors.push({ path: '/type', message: `must be one of ${ATTACHMENT_TYPES.join(', ')}` });
  }
  const title = fields.title?.trim();
  if (title !== undefined) {
    const max = limits.attachments.titleChars;
    if (title === '') errors.push({ path: '/title', message: BLANK_MESSAGE });
    else if (Array.from(title).length > max) {
      errors.push({ path: '/title', message: `must have at most ${max} characters` });
    } else if (!ONE_LINE.test(title)) {
      errors.push({ path: '/title', message: ONE_LINE_MESSAGE });
    }
  }
  if (errors.length > 0 || type === undefined) return { errors };
  return { ok: { type, title } };
}

/**
 * The title kept for an uploaded file name: without directories (some browsers send a full
 * path), control or bidirectional formatting characters or surrounding spaces, cut to
 * `limits.attachments.titleChars`.
 */
export function titleFromFileName(fileName: string, fallback: string): string {
  const base = path.win32.basename(path.posix.basename(fileName));
  const clean = Array.from(base)
    // U+FFFD stands for bytes of a file name that were not UTF-8: nothing to show.
    .filter((c) => ONE_LINE.test(c) && c !== '\t' && c !== '\uFFFD')
    .join('')
    .trim();
  const title = Array.from(clean).slice(0, limits.attachments.titleChars).join('');
  return title === '' ? fallback : title;
}
