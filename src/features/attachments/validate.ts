import { ATTACHMENT_TYPES, type AttachmentType } from '../../accounts/tables.js';
import type { FieldError } from '../../http/problem.js';
import { fieldErrorsOf } from '../../http/validation.js';
import { AttachmentFormFields } from './schemas.js';

/** The form's text fields, checked as a JSON body's would be: `type` and an optional `title`. */
export interface AttachmentFields {
  type: AttachmentType;
  title: string | undefined;
}

/**
 * The text fields of an upload form, or the errors naming each wrong one: the title trimmed
 * (the spaces around it are not kept), then both checked against the schema the API documents
 * for the form, with a JSON body's validator and words.
 */
export function checkFields(
  fields: Record<string, string>,
): { ok: AttachmentFields } | { errors: FieldError[] } {
  const title = fields.title?.trim();
  const checked = { ...fields, ...(title === undefined ? {} : { title }) };
  const errors = fieldErrorsOf(AttachmentFormFields, checked);
  const type = ATTACHMENT_TYPES.find((t) => t === fields.type);
  if (errors.length > 0 || type === undefined) return { errors };
  return { ok: { type, title } };
}
