import { Type, type Static } from 'typebox';
import { ATTACHMENT_CONTENT_TYPES, ATTACHMENT_TYPES } from '../../accounts/tables.js';
import { STORED_DOWNLOAD_HEADERS, STREAMED_TEXT } from '../../http/download.js';
import {
  OneLineText,
  fileField,
  multipartBody,
  StrictObject,
  StringEnum,
} from '../../http/schemas.js';
import { limits } from '../../limits.js';
import { VALUES_PER_OBJECT } from '../../pdf/pdf-structure.js';

const MiB = (bytes: number) => `${bytes / (1024 * 1024)} MiB`;

/** The rules as the API describes them, kept next to the schemas that state them. */
export const ATTACHMENT_RULES =
  `An attachment is a PNG, JPEG or PDF, recognised by its content (not its name or declared ` +
  `type), of at most ${MiB(limits.attachments.fileBytes)} (${limits.attachments.fileBytes} ` +
  `bytes). Images are measured from their headers before they are decoded: at most ` +
  `${limits.attachments.maxPixels} pixels (a quarter of that for a 16-bit PNG) and ` +
  `${limits.attachments.maxSide} on a side; then ` +
  `decoded in full to prove they are whole (a JPEG whose decoding would need more than ` +
  `${limits.attachments.decodeMemoryMb} MB is checked by its structure: header, scans, end of ` +
  `image). PDFs have 1 to ${limits.attachments.pages} pages, ` +
  `neither encrypted nor truncated. A dossier has at most ${limits.attachments.perDossier} ` +
  `attachments of ${MiB(limits.attachments.bytesPerDossier)} together (a report holds them ` +
  `all), and its PDFs a copy weight of at most ${limits.attachments.copyWeightPerDossier} ` +
  `together: the objects a report copies from them, one more for every ` +
  `${VALUES_PER_OBJECT} values in them (real documents: tens a page); beyond → 409.`;

export const AttachmentListParams = StrictObject({
  id: Type.String({ format: 'uuid', description: 'The dossier id.' }),
});
export type AttachmentListParams = Static<typeof AttachmentListParams>;

export const AttachmentParams = StrictObject({
  id: Type.String({ format: 'uuid', description: 'The dossier id.' }),
  attachmentId: Type.String({ format: 'uuid', description: 'The attachment id.' }),
});
export type AttachmentParams = Static<typeof AttachmentParams>;

const Fields = {
  id: Type.String({ format: 'uuid', description: 'Identifies the attachment.' }),
  type: StringEnum(ATTACHMENT_TYPES, {
    description: 'What the file is; the report shows it in the section `attachments.<type>`.',
  }),
  title: Type.String({
    description:
      `The \`title\` sent, else the file name (without any directory), at most ` +
      `${limits.attachments.titleChars} characters.`,
  }),
  contentType: StringEnum(ATTACHMENT_CONTENT_TYPES, {
    description: 'The file kind, recognised by content.',
  }),
  size: Type.Integer({ minimum: 1, description: 'Size of the file in bytes.' }),
  url: Type.String({
    description: 'Where to download the file: `GET` with the same token.',
    examples: [
      '/api/v1/dossiers/3f8a6f0e-58a1-4a53-9c2b-3c1e1f0b9b6d/attachments/0f8c2a8e-5d1b-4a7e-9a53-2b8e0c6a9f10',
    ],
  }),
};

export const AttachmentCreated = Type.Object(Fields);
export type AttachmentCreated = Static<typeof AttachmentCreated>;

export const AttachmentItem = Type.Object({
  ...Fields,
  width: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Pixels as shown (a JPEG turned by its EXIF orientation); null for a PDF.',
  }),
  height: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Pixels as shown; null for a PDF.',
  }),
  pages: Type.Union([Type.Integer(), Type.Null()], { description: 'Pages; null for an image.' }),
  createdAt: Type.String({ format: 'date-time', description: 'Upload time (UTC).' }),
});
export type AttachmentItem = Static<typeof AttachmentItem>;

export const AttachmentList = Type.Object(
  { items: Type.Array(AttachmentItem, { maxItems: limits.attachments.perDossier }) },
  { description: 'The dossier’s attachments, oldest first.' },
);
export type AttachmentList = Static<typeof AttachmentList>;

/** The upload form's text fields as the API documents them, and as they are checked
 * (src/features/attachments/validate.ts). */
const FORM_TEXT_FIELDS = {
  type: { type: 'string', enum: [...ATTACHMENT_TYPES] },
  title: OneLineText({
    minLength: 1,
    maxLength: limits.attachments.titleChars,
    description:
      `One line of text, not blank; at most ${String(limits.attachments.titleChars)} characters ` +
      'once trimmed (the spaces around it are not kept); no control or bidirectional ' +
      'formatting characters.',
  }),
};

/** The upload form's text fields, `title` trimmed, as one object to check. */
export const AttachmentFormFields = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: FORM_TEXT_FIELDS,
};

/** Documents the upload form: the file, its type and an optional title. */
export const AttachmentUploadBody = multipartBody(['file', 'type'], {
  file: fileField('The PNG, JPEG or PDF. Its file name is the title unless `title` is sent.'),
  ...FORM_TEXT_FIELDS,
});

/** The download's body: the file as uploaded. */
export const AttachmentFile = {
  headers: STORED_DOWNLOAD_HEADERS,
  description:
    'The file, byte for byte as uploaded, with its recognised type and its `Content-Length`; ' +
    STREAMED_TEXT,
  content: Object.fromEntries(
    ATTACHMENT_CONTENT_TYPES.map((type) => [
      type,
      { schema: { type: 'string', format: 'binary' } },
    ]),
  ),
};
