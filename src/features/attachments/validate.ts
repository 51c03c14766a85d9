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
