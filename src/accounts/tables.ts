import type { Insertable, Selectable } from 'kysely';

// One schema for SQLite and PostgreSQL: ids are UUID text, times are ISO-8601 UTC text
// (`Date#toISOString`, which sorts and compares correctly as text), flags are 0/1 integers
// (better-sqlite3 cannot bind booleans).

export interface OrganizationsTable {
  id: string;
  name: string;
  /** The name as compared (organization-name.ts); null only before migration 0009 ran. */
  name_key: string | null;
  created_at: string;
}

export interface UsersTable {
  id: string;
  organization_id: string;
  username: string;
  password_hash: string;
  is_admin: number;
  created_at: string;
  /** When an operator disabled the user (`propdata users disable`): no login, no token works. */
  disabled_at: string | null;
}

export type TokenKind = 'login' | 'api';

export interface TokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  kind: TokenKind;
  label: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export const COVER_SIDES = ['front', 'back'] as const;
export type CoverSide = (typeof COVER_SIDES)[number];

/** A PDF cover: an organization's (`user_id` null) or one user's. Its bytes are in `cover_chunks`. */
export interface CoversTable {
  id: string;
  organization_id: string;
  user_id: string | null;
  side: CoverSide;
  /** 0-based order within the owner and side. */
  position: number;
  title: string;
  pages: number;
  size: number;
  created_at: string;
}

/** The PDF bytes in rows of 1 MiB (src/accounts/stored-bytes.ts), apart from `covers` so that
 * listing covers never reads them. */
export interface CoverChunksTable {
  cover_id: string;
  seq: number;
  bytes: Uint8Array;
}

export interface AccountTables {
  organizations: OrganizationsTable;
  users: UsersTable;
  tokens: TokensTable;
  templates: TemplatesTable;
  covers: CoversTable;
  cover_chunks: CoverChunksTable;
  dossiers: DossiersTable;
  dossier_links: DossierLinksTable;
  dossier_valuations: DossierValuationsTable;
  attachments: AttachmentsTable;
  attachment_files: AttachmentFilesTable;
  attachment_chunks: AttachmentChunksTable;
}

export type OrganizationRow = Selectable<OrganizationsTable>;
export type UserRow = Selectable<UsersTable>;
export type TokenRow = Selectable<TokensTable>;
export type NewToken = Insertable<TokensTable>;

/** Who a report template belongs to: its creator, its organization, or the service itself. */
export const TEMPLATE_LEVELS = ['user', 'organization', 'provider'] as const;
export type TemplateLevel = (typeof TEMPLATE_LEVELS)[number];

/** Which rent a report shows. */
export const RENT_TYPES = ['rent_net', 'rent_gross'] as const;
export type RentType = (typeof RENT_TYPES)[number];

/** Report templates: provider ones have no owner, organization ones an organization, user ones
 * both their user and that user's organization. `sections` is JSON text. */
export interface TemplatesTable {
  id: string;
  level: TemplateLevel;
  organization_id: string | null;
  user_id: string | null;
  title: string;
  country_code: string;
  rent_type: RentType;
  front_cover: number;
  back_cover: number;
  sections: string;
  created_at: string;
  updated_at: string;
}

export type TemplateRow = Selectable<TemplatesTable>;

/** A dossier: its body as JSON text (src/features/dossiers), and the columns queries use. */
export interface DossiersTable {
  id: string;
  organization_id: string;
  creator_id: string | null;
  country_code: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export type DossierRow = Selectable<DossiersTable>;

/** A sharing link of a dossier (src/features/dossier-links): only its token's SHA-256 is kept. */
export interface DossierLinksTable {
  id: string;
  organization_id: string;
  dossier_id: string;
  creator_id: string | null;
  token_hash: string;
  locale: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export type DossierLinkRow = Selectable<DossierLinksTable>;

/** What a dossier's last valuation rested on (src/features/valuation/dossier-valuation.ts). */
export interface DossierValuationsTable {
  dossier_id: string;
  organization_id: string;
  /** SHA-256 of the facts the valuation model was given. */
  property_hash: string;
  /** The market snapshot's file name. */
  snapshot: string;
  valued_at: string;
}
/** What a dossier attachment is, for the report's `attachments.<type>` sections. */
export const ATTACHMENT_TYPES = ['floorplan', 'permit', 'marketing', 'valuation', 'other'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

/** The file kinds an attachment may be, recognised by content. */
export const ATTACHMENT_CONTENT_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;
export type AttachmentContentType = (typeof ATTACHMENT_CONTENT_TYPES)[number];

/** A file kept with a dossier (its bytes are in `attachment_chunks`). Images have their
 * dimensions, PDFs their page count and copy weight (null for a PDF stored before weights were
 * kept, until it is weighed). */
export interface AttachmentsTable {
  id: string;
  dossier_id: string;
  organization_id: string;
  type: AttachmentType;
  title: string;
  content_type: AttachmentContentType;
  size: number;
  /** Bytes of its print version, 0 without one: what it stores is `size + print_size`. */
  print_size: number;
  width: number | null;
  height: number | null;
  pages: number | null;
  copy_weight: number | null;
  created_at: string;
}

/** What reports show of a PNG pdfkit cannot embed as it is (src/pdf/print-version.ts). */
export interface AttachmentFilesTable {
  attachment_id: string;
  print_content: Uint8Array | null;
}

/** An attachment's bytes as uploaded, in rows of 1 MiB (src/accounts/stored-bytes.ts). */
export interface AttachmentChunksTable {
  attachment_id: string;
  seq: number;
  bytes: Uint8Array;
}

export type AttachmentRow = Selectable<AttachmentsTable>;
