import { PostgresAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { organizationNameKey } from './organization-name.js';
import { chunksOf } from './stored-bytes.js';

// Migrations are code, listed in order, and never edited once released: add a new one instead.
// They must run on both SQLite and PostgreSQL, so they use only portable column types (binary
// content, which has none, picks its type by dialect).

const migrations: Record<string, Migration> = {
  '0001_accounts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('organizations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addCheckConstraint('users_is_admin_flag', sql`is_admin in (0, 1)`)
        .execute();
      await db.schema
        .createIndex('users_organization_id')
        .on('users')
        .column('organization_id')
        .execute();
      await db.schema
        .createTable('tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('revoked_at', 'text')
        .addCheckConstraint('tokens_kind', sql`kind in ('login', 'api')`)
        .execute();
      await db.schema.createIndex('tokens_user_id').on('tokens').column('user_id').execute();
    },
  },
  // Report templates (src/features/templates). `sections` is JSON text, checked by the
  // feature's rules before it is written. User templates keep their organization too, so every
  // query can be scoped by organization.
  '0002_templates': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('templates')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('level', 'text', (c) => c.notNull())
        .addColumn('organization_id', 'text', (c) =>
          c.references('organizations.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('country_code', 'text', (c) => c.notNull())
        .addColumn('rent_type', 'text', (c) => c.notNull())
        .addColumn('front_cover', 'integer', (c) => c.notNull())
        .addColumn('back_cover', 'integer', (c) => c.notNull())
        .addColumn('sections', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addCheckConstraint(
          'templates_owner',
          sql`(level = 'provider' and organization_id is null and user_id is null)
            or (level = 'organization' and organization_id is not null and user_id is null)
            or (level = 'user' and organization_id is not null and user_id is not null)`,
        )
        .addCheckConstraint('templates_rent_type', sql`rent_type in ('rent_net', 'rent_gross')`)
        .addCheckConstraint('templates_front_cover_flag', sql`front_cover in (0, 1)`)
        .addCheckConstraint('templates_back_cover_flag', sql`back_cover in (0, 1)`)
        .execute();
      await db.schema
        .createIndex('templates_organization_country')
        .on('templates')
        .columns(['organization_id', 'country_code'])
        .execute();
      await db.schema.createIndex('templates_user_id').on('templates').column('user_id').execute();
      await db.schema
        .createIndex('templates_level_country')
        .on('templates')
        .columns(['level', 'country_code'])
        .execute();
    },
  },
  '0003_covers': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('covers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        // null: an organization cover; else the user who owns it.
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('side', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('pages', 'integer', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addCheckConstraint('covers_side', sql`side in ('front', 'back')`)
        .execute();
      await db.schema
        .createIndex('covers_owner_side')
        .on('covers')
        .columns(['organization_id', 'user_id', 'side', 'position'])
        .execute();
      // Binary has no portable type name: PostgreSQL calls it bytea, SQLite blob.
      const binary = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
      await db.schema
        .createTable('cover_files')
        .addColumn('cover_id', 'text', (c) =>
          c.primaryKey().references('covers.id').onDelete('cascade'),
        )
        .addColumn('content', binary, (c) => c.notNull())
        .execute();
    },
  },
  // Dossiers (src/features/dossiers): the body is JSON text, checked by the feature before it is
  // written; the columns every query filters or sorts on are kept beside it. A dossier belongs to
  // its organization: it outlives its creator (creator_id is then null).
  '0004_dossiers': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('dossiers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('creator_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('country_code', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('dossiers_organization_created')
        .on('dossiers')
        .columns(['organization_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('dossiers_creator_id')
        .on('dossiers')
        .column('creator_id')
        .execute();
    },
  },
  // Dossier attachments (src/features/attachments): files kept with a dossier and shown by the
  // report's `attachments.*` sections. Like covers, the bytes are a table of their own, so that
  // lists never read them; both go with their dossier.
  '0005_attachments': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('attachments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('dossier_id', 'text', (c) =>
          c.notNull().references('dossiers.id').onDelete('cascade'),
        )
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('pages', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addCheckConstraint(
          'attachments_type',
          sql`type in ('floorplan', 'permit', 'marketing', 'valuation', 'other')`,
        )
        .execute();
      await db.schema
        .createIndex('attachments_dossier')
        .on('attachments')
        .columns(['dossier_id', 'created_at', 'id'])
        .execute();
      const binary = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
      await db.schema
        .createTable('attachment_files')
        .addColumn('attachment_id', 'text', (c) =>
          c.primaryKey().references('attachments.id').onDelete('cascade'),
        )
        .addColumn('content', binary, (c) => c.notNull())
        .execute();
    },
  },
  // Sharing links of dossiers (src/features/dossier-links): a link opens a read-only page of
  // the dossier without a login until it expires or is revoked. Only the SHA-256 of its token is
  // kept, so the table read by someone else opens nothing. A link goes with its dossier.
  '0006_dossier_links': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('dossier_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('dossier_id', 'text', (c) =>
          c.notNull().references('dossiers.id').onDelete('cascade'),
        )
        .addColumn('creator_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema
        .createIndex('dossier_links_dossier')
        .on('dossier_links')
        .columns(['dossier_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('dossier_links_organization')
        .on('dossier_links')
        .columns(['organization_id', 'created_at'])
        .execute();
    },
  },
  // What each dossier's last valuation (POST /api/v1/dossiers/{id}/valuation) rested on: the
  // facts the model used and the market snapshot, so that the next one can tell whether the
  // previous answer is out of date (`isValuationStale`). One row per dossier, gone with it.
  '0007_dossier_valuations': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('dossier_valuations')
        .addColumn('dossier_id', 'text', (c) =>
          c.primaryKey().references('dossiers.id').onDelete('cascade'),
        )
        .addColumn('organization_id', 'text', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('property_hash', 'text', (c) => c.notNull())
        .addColumn('snapshot', 'text', (c) => c.notNull())
        .addColumn('valued_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  // The print version of an attachment image (src/pdf/print-version.ts), made at upload: a
  // transparent or very large PNG cost seconds to convert on every report.
  '0008_attachment_prints': {
    async up(db: Kysely<unknown>) {
      const binary = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
      await db.schema.alterTable('attachment_files').addColumn('print_content', binary).execute();
    },
  },
  // Organization names are unique as people read them, not byte for byte: `Acme` and `ACME`,
  // or `Café` written with a combining accent, were two organizations (usernames were already
  // compared in lower case). The key is computed in code (organizationNameKey), so both
  // backends compare alike; names that already collide keep their own key (their id appended)
  // rather than stop the migration.
  '0009_organization_name_keys': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('organizations').addColumn('name_key', 'text').execute();
      const rows = await sql<{ id: string; name: string }>`
        select id, name from organizations order by created_at, id`.execute(db);
      const taken = new Set<string>();
      for (const { id, name } of rows.rows) {
        const key = organizationNameKey(name);
        const unique = taken.has(key) ? `${key}#${id}` : key;
        taken.add(unique);
        await sql`update organizations set name_key = ${unique} where id = ${id}`.execute(db);
      }
      await db.schema
        .createIndex('organizations_name_key_unique')
        .unique()
        .on('organizations')
        .column('name_key')
        .execute();
    },
  },
  // Stored files in rows of 1 MiB (STORED_CHUNK_BYTES): a download reads one row per chunk. As
  // one value, SQLite loaded the whole file for every chunk a download read (25 loads of 25 MiB
  // for one download of a large cover, a third of a second of the server's one thread). The
  // files already stored are cut into rows here; an attachment keeps its print version whole.
  '0010_file_chunks': {
    async up(db: Kysely<unknown>) {
      const binary = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
      for (const [table, owner, ownerTable] of [
        ['cover_chunks', 'cover_id', 'covers'],
        ['attachment_chunks', 'attachment_id', 'attachments'],
      ] as const) {
        await db.schema
          .createTable(table)
          .addColumn(owner, 'text', (c) =>
            c.notNull().references(`${ownerTable}.id`).onDelete('cascade'),
          )
          .addColumn('seq', 'integer', (c) => c.notNull())
          .addColumn('bytes', binary, (c) => c.notNull())
          .addPrimaryKeyConstraint(`${table}_pk`, [owner, 'seq'])
          .execute();
      }
      const copy = async (from: string, owner: string, to: string) => {
        const ids = await sql<{ id: string }>`
          select ${sql.ref(owner)} as id from ${sql.table(from)}`.execute(db);
        // One file at a time: a file is at most 25 MiB.
        for (const { id } of ids.rows) {
          const { rows } = await sql<{ content: Uint8Array }>`
            select content from ${sql.table(from)} where ${sql.ref(owner)} = ${id}`.execute(db);
          for (const [seq, bytes] of chunksOf(rows[0]?.content ?? new Uint8Array()).entries()) {
            await sql`insert into ${sql.table(to)} (${sql.ref(owner)}, seq, bytes)
              values (${id}, ${seq}, ${bytes})`.execute(db);
          }
        }
      };
      await copy('cover_files', 'cover_id', 'cover_chunks');
      await db.schema.dropTable('cover_files').execute();
      await copy('attachment_files', 'attachment_id', 'attachment_chunks');
      await db.schema.alterTable('attachment_files').dropColumn('content').execute();
    },
  },
  // Users an operator disables (someone who left): login refused, tokens revoked and refused.
  '0011_user_disabled': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
    },
  },
  // What a report's copy of a PDF attachment costs (src/pdf/pdf-structure.ts trialMerge),
  // bounded per dossier. PDFs stored before have none until the next upload to their dossier
  // weighs them (attachments.ts).
  '0012_attachment_copy_weight': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('attachments').addColumn('copy_weight', 'integer').execute();
    },
  },
  // An organization's stored bytes, summed at each upload (src/accounts/organization-storage.ts)
  // from indexes that hold them: an attachment's print version's size is kept beside its own.
  '0013_organization_storage': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('attachments')
        .addColumn('print_size', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update attachments set print_size = coalesce((select length(print_content)
        from attachment_files where attachment_id = attachments.id), 0)`.execute(db);
      await db.schema
        .createIndex('attachments_organization_bytes')
        .on('attachments')
        .columns(['organization_id', 'size', 'print_size'])
        .execute();
      await db.schema
        .createIndex('covers_organization_bytes')
        .on('covers')
        .columns(['organization_id', 'size'])
        .execute();
    },
  },
  // Sharing links in the order lists give them (newest first, then id), so that a page is read
  // from the index, not sorted.
  '0014_dossier_link_order': {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('dossier_links_organization').execute();
      await db.schema.dropIndex('dossier_links_dossier').execute();
      await db.schema
        .createIndex('dossier_links_organization_order')
        .on('dossier_links')
        .columns(['organization_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('dossier_links_dossier_order')
        .on('dossier_links')
        .columns(['dossier_id', 'created_at', 'id'])
        .execute();
    },
  },
  // An organization's open links counted at each creation (their bound) from an index, not
  // by reading every one of its links.
  '0015_dossier_links_open': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('dossier_links_organization_open')
        .on('dossier_links')
        .columns(['organization_id', 'revoked_at', 'expires_at'])
        .execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
