import { Type, type Static } from 'typebox';
import { COVER_SIDES } from '../../accounts/tables.js';
import { pdfResponse, STORED_DOWNLOAD_HEADERS, STREAMED_TEXT } from '../../http/download.js';
import { fileField, multipartBody, StrictObject, StringEnum } from '../../http/schemas.js';
import { limits } from '../../limits.js';

export const COVER_SCOPES = ['user', 'organization'] as const;
export type CoverScope = (typeof COVER_SCOPES)[number];

const MiB = (bytes: number) => `${bytes / (1024 * 1024)} MiB`;

/** The limits as the API describes them, kept next to the schemas that state them. */
export const COVER_RULES =
  `A cover is a PDF (checked by parsing it, not by its name or declared type) of at most ` +
  `${MiB(limits.covers.fileBytes)} (${limits.covers.fileBytes} bytes) and 1 to ` +
  `${limits.covers.pages} pages, neither encrypted nor truncated. An owner (a user, or an ` +
  `organization) has at most ${limits.covers.perOwnerAndSide} covers per side.`;

export const CoverKindParams = StrictObject({
  scope: StringEnum(COVER_SCOPES, {
    description:
      "`user`: the caller's own covers. `organization`: the organization's, which every member " +
      'reads and only its admins change.',
  }),
  side: StringEnum(COVER_SIDES, { description: 'Front or back cover.' }),
});
export type CoverKindParams = Static<typeof CoverKindParams>;

export const CoverFileParams = StrictObject({
  uuid: Type.String({ format: 'uuid', description: 'The cover’s `uuid`.' }),
});
export type CoverFileParams = Static<typeof CoverFileParams>;

const Uuid = Type.String({ format: 'uuid', description: 'Identifies the cover.' });
const Title = Type.String({
  description: `The uploaded file's name (without any directory), at most ${limits.covers.titleChars} characters.`,
});
const Url = Type.String({
  description: 'Where to download the PDF: `GET` with the same bearer token.',
  examples: ['/api/v1/user-settings/covers/file/0f8c2a8e-5d1b-4a7e-9a53-2b8e0c6a9f10'],
});

export const CoverCreated = Type.Object({ uuid: Uuid, title: Title, url: Url });
export type CoverCreated = Static<typeof CoverCreated>;

export const CoverItem = Type.Object({
  uuid: Uuid,
  title: Title,
  url: Url,
  pages: Type.Integer({ minimum: 1, description: 'Number of pages.' }),
  size: Type.Integer({ minimum: 1, description: 'Size of the PDF in bytes.' }),
  createdAt: Type.String({ format: 'date-time', description: 'Upload time (UTC).' }),
});
export type CoverItem = Static<typeof CoverItem>;

export const CoverList = Type.Object(
  { items: Type.Array(CoverItem) },
  { description: 'The covers in their order.' },
);
export type CoverList = Static<typeof CoverList>;

export const CoverOrder = StrictObject(
  {
    items: Type.Array(StrictObject({ uuid: Type.String({ format: 'uuid' }) }), {
      maxItems: limits.covers.perOwnerAndSide,
      description:
        'Every cover to keep, in the new order. Each must be an existing cover of this owner ' +
        'and side, listed once; covers not listed are deleted. `[]` deletes them all.',
    }),
  },
  { title: 'CoverOrder' },
);
export type CoverOrder = Static<typeof CoverOrder>;

/** Documents the upload form: one PDF. */
export const CoverUploadBody = multipartBody(['cover'], {
  cover: fileField(
    'The PDF. Its file name becomes the title. The only part of the form: any other field, a ' +
      'second file or a part that is not a form field is refused.',
  ),
});

/** The download's body: the PDF bytes as uploaded. */
export const CoverPdf = pdfResponse(
  `The PDF, byte for byte as uploaded, with its \`Content-Length\`; ${STREAMED_TEXT}`,
  STORED_DOWNLOAD_HEADERS,
);
