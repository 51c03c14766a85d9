import type { FastifyRequest } from 'fastify';
import { pendingForm, type FormSpec, type PendingUpload } from '../../http/form-upload.js';
import { limits } from '../../limits.js';

/** The cover upload form: one PDF in the file field `cover`. */
export const COVER_FORM: FormSpec = {
  fileField: 'cover',
  textFields: [],
  fileBytes: limits.covers.fileBytes,
  requestBytes: limits.covers.requestBytes,
  fileNoun: 'the cover',
  fileWhat: 'the PDF',
};

/** The cover form of `request`, not read yet: its one file. */
export function pendingCover(
  request: FastifyRequest,
): PendingUpload<{ fileName: string; bytes: Buffer }> {
  const form = pendingForm(COVER_FORM, request);
  return {
    declaredBytes: form.declaredBytes,
    answer: form.answer,
    read: async () => {
      const { fileName, bytes } = await form.read();
      return { fileName, bytes };
    },
  };
}
