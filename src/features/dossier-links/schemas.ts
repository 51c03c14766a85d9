import { Type, type Static } from 'typebox';
import { PatternText, StrictObject, type HeaderDoc } from '../../http/schemas.js';
import { limits } from '../../limits.js';
import { LOCALE_MESSAGE, LOCALE_PATTERN } from '../reports/messages.js';

const L = limits.dossierLinks;

export const CreateLinkRequest = Object.assign(
  StrictObject({
    dossierId: Type.String({
      format: 'uuid',
      description: 'A dossier of the caller’s organization.',
    }),
    daysToLive: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: L.maxDaysToLive,
        default: L.defaultDaysToLive,
        description: `Days the link opens the page, 1–${String(L.maxDaysToLive)} (default ${String(L.defaultDaysToLive)}).`,
      }),
    ),
    countryCode: Type.Optional(
      Type.String({ maxLength: 64, description: 'If given, must be the dossier’s country.' }),
    ),
    locale: Type.Optional(
      PatternText(LOCALE_PATTERN, LOCALE_MESSAGE, {
        default: 'en',
        description:
          'Language of the page, as `de`, `de_CH` or `de-CH`: German, French and Italian pages ' +
          'exist, any other language is shown in English (default `en`).',
      }),
    ),
    canGeneratePdf: Type.Optional(
      Type.Boolean({ description: 'Accepted and ignored: the page offers no PDF.' }),
    ),
  }),
  {
    examples: [
      { dossierId: '301785bc-ec45-4183-ae58-48abd2a0f1d0', daysToLive: 30, locale: 'de_CH' },
    ],
  },
);
export type CreateLinkRequest = Static<typeof CreateLinkRequest>;

export const CreatedLink = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String({
    description:
      'The page’s address, holding the link’s secret: shown here once (only a hash of it is ' +
      'kept), built on the configured public base URL.',
  }),
  expiresAt: Type.String({ format: 'date-time' }),
});
export type CreatedLink = Static<typeof CreatedLink>;

export const DossierLink = Type.Object({
  id: Type.String({ format: 'uuid' }),
  dossierId: Type.String({ format: 'uuid' }),
  locale: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  isActive: Type.Boolean({ description: 'Neither expired nor revoked: the page opens.' }),
});
export type DossierLink = Static<typeof DossierLink>;

export const LinkListQuery = StrictObject({
  dossierId: Type.Optional(
    Type.String({ format: 'uuid', description: 'Only this dossier’s links.' }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: L.pageSize,
      default: L.pageSize,
      description: `Items per page, 1–${String(L.pageSize)} (default ${String(L.pageSize)}).`,
    }),
  ),
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: L.maxOffset,
      default: 0,
      description: 'Items to skip (default 0).',
    }),
  ),
});
export type LinkListQuery = Static<typeof LinkListQuery>;

export const LinkList = Type.Object({
  items: Type.Array(DossierLink, { description: 'Newest first.' }),
  totalItems: Type.Integer({ description: 'Links of the organization (or dossier) in all pages.' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const LinkParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The link id.' }),
});

/**
 * The page is opened by people from links in mails and chats, which append parameters of their
 * own (`utm_source`, `fbclid`) and may be cut or doubled: nothing here is refused, since a
 * refusal would be an error document instead of a page. A secret that is not one is the plain
 * 404 page (page.ts).
 */
export const PageParams = Type.Object({
  token: Type.String({ description: 'The secret part of the link.' }),
});

export const PageQuery = Type.Object(
  {
    lang: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], {
        description:
          'Language of the page instead of the link’s locale (`de`, `fr`, `it`, else English); ' +
          'the original service’s Ruby client appends it to every link. Given twice, the first ' +
          'counts; not two letters, it is ignored. Other parameters are ignored.',
      }),
    ),
  },
  { additionalProperties: true },
);

/** The OpenAPI answer of the shared page: an HTML document for a person, whatever the status. */
export function htmlPage(description: string, headers?: Record<string, HeaderDoc>) {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { 'text/html': { schema: { type: 'string' } } },
  };
}
