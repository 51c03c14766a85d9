import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type { AccountDb } from '../../accounts/database.js';
import { lockOwnerRow } from '../../accounts/owner-lock.js';
import type { AccountTables, TemplateRow } from '../../accounts/tables.js';
import { AppError } from '../../http/problem.js';
import type { Viewer } from '../../http/caller.js';
import { limits } from '../../limits.js';
import type { TemplateCountry } from './section-rules.js';
import type { Section, TemplateContent } from './schemas.js';
import type { Template } from './template.js';

// Storage of templates. Every query takes the viewer: what it may see is decided here, in SQL,
// so no query can reach another organization's or another user's templates by accident.

function toTemplate(row: TemplateRow): Template {
  return {
    id: row.id,
    title: row.title,
    level: row.level,
    countryCode: row.country_code as TemplateCountry,
    rentType: row.rent_type,
    frontCover: row.front_cover === 1,
    backCover: row.back_cover === 1,
    sections: JSON.parse(row.sections) as Section[],
    organizationId: row.organization_id,
    userId: row.user_id,
    createdAt: row.created_at,
  };
}

/** Provider templates, the viewer's organization's, and the viewer's own. */
function visibleTo(viewer: Viewer) {
  return (eb: ExpressionBuilder<AccountTables, 'templates'>) =>
    eb.or([
      eb('level', '=', 'provider'),
      eb.and([
        eb('organization_id', '=', viewer.organizationId),
        eb.or([eb('level', '=', 'organization'), eb('user_id', '=', viewer.userId)]),
      ]),
    ]);
}

/** Templates the viewer may change, if their permissions allow: never provider ones. */
function ownedBy(viewer: Viewer) {
  return (eb: ExpressionBuilder<AccountTables, 'templates'>) =>
    eb.and([
      eb('organization_id', '=', viewer.organizationId),
      eb.or([eb('level', '=', 'organization'), eb('user_id', '=', viewer.userId)]),
    ]);
}

export async function listVisibleTemplates(
  db: AccountDb,
  viewer: Viewer,
  country: TemplateCountry,
): Promise<Template[]> {
  const rows = await db
    .selectFrom('templates')
    .selectAll()
    .where('country_code', '=', country)
    .where(visibleTo(viewer))
    .orderBy((eb) =>
      eb
        .case()
        .when('level', '=', 'provider')
        .then(0)
        .when('level', '=', 'organization')
        .then(1)
        .else(2)
        .end(),
    )
    .orderBy('created_at')
    // Templates made in the same millisecond (the provider ones are made together).
    .orderBy('title')
    .orderBy('id')
    .execute();
  return rows.map(toTemplate);
}

export async function findVisibleTemplate(
  db: AccountDb,
  viewer: Viewer,
  id: string,
): Promise<Template | undefined> {
  const row = await db
    .selectFrom('templates')
    .selectAll()
    .where('id', '=', id)
    .where(visibleTo(viewer))
    .executeTakeFirst();
  return row && toTemplate(row);
}

/** The columns that hold a template's content, as stored. */
export function contentColumns(content: TemplateContent) {
  return {
    title: content.title,
    country_code: content.countryCode,
    rent_type: content.rentType,
    front_cover: content.frontCover ? 1 : 0,
    back_cover: content.backCover ? 1 : 0,
    sections: JSON.stringify(content.sections),
  };
}

/**
 * Inserts a user or organization template unless its owner already has the most allowed
 * (`409 conflict`); the organization's row lock (lockOwnerRow) keeps the count and the insert
 * from interleaving with another request's.
 */
export async function insertTemplate(
  db: AccountDb,
  viewer: Viewer,
  content: TemplateContent & { level: 'user' | 'organization' },
  now: Date,
): Promise<string> {
  const id = randomUUID();
  const isUser = content.level === 'user';
  const max = isUser ? limits.templates.perUser : limits.templates.perOrganization;
  await db.transaction().execute(async (trx) => {
    await lockOwnerRow(trx, { table: 'organizations', id: viewer.organizationId });
    const { n } = await trx
      .selectFrom('templates')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('level', '=', content.level)
      .where('organization_id', '=', viewer.organizationId)
      .$if(isUser, (q) => q.where('user_id', '=', viewer.userId))
      .executeTakeFirstOrThrow();
    if (Number(n) >= max) {
      throw new AppError(
        'conflict',
        isUser
          ? `A user may keep at most ${max} user templates; delete one first`
          : `An organization may keep at most ${max} organization templates; delete one first`,
      );
    }
    const at = now.toISOString();
    await trx
      .insertInto('templates')
      .values({
        id,
        level: content.level,
        organization_id: viewer.organizationId,
        user_id: isUser ? viewer.userId : null,
        ...contentColumns(content),
        created_at: at,
        updated_at: at,
      })
      .execute();
  });
  return id;
}

/** Replaces a template's content (not its level or owners); false when it is gone. */
export async function replaceTemplate(
  db: AccountDb,
  viewer: Viewer,
  id: string,
  content: TemplateContent,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('templates')
    .set({ ...contentColumns(content), updated_at: now.toISOString() })
    .where('id', '=', id)
    .where(ownedBy(viewer))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** False when it is gone. */
export async function deleteTemplate(db: AccountDb, viewer: Viewer, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('templates')
    .where('id', '=', id)
    .where(ownedBy(viewer))
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
