import { createHash } from 'node:crypto';
import type { AccountDb } from '../../accounts/database.js';
import type { TemplatesTable } from '../../accounts/tables.js';
import {
  LAYOUT_ITEM,
  LAYOUTS,
  sectionsFor,
  TEMPLATE_COUNTRIES,
  type AvailableSection,
  type ItemRule,
  type Layout,
  type TemplateCountry,
} from './section-rules.js';
import type { Section, TemplateContent } from './schemas.js';
import { contentColumns } from './store.js';
import { TEMPLATE_DEFAULTS } from './template.js';

/**
 * The operator's templates: one per supported country and layout, built from the section rules
 * table, so they hold exactly what the rules require (valid by construction, and tested so).
 */

const TITLES: Record<Layout, string> = {
  appraisal: 'Appraisal report',
  brochure: 'Sales brochure',
};

/** Namespace of the provider templates' name-based (version 5) UUIDs. */
const NAMESPACE = Buffer.from('6f1c0e52a3b84d0f9a7e2c5b8d41f093', 'hex');

/** The same id in every database and on every start: what makes seeding idempotent. */
export function providerTemplateId(country: TemplateCountry, layout: Layout): string {
  const hash = createHash('sha1')
    .update(NAMESPACE)
    .update(`provider/${country}/${layout}`)
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function defaultValue(section: AvailableSection, item: ItemRule, layout: Layout): boolean | string {
  if (section.type === LAYOUT_ITEM.section && item.name === LAYOUT_ITEM.item) return layout;
  return item.value.kind === 'boolean' ? true : (item.value.values[0] ?? '');
}

/** Every section of the country and layout, shown, with every item on. */
export function defaultSections(country: TemplateCountry, layout: Layout): Section[] {
  return sectionsFor(country, layout).map((section) => ({
    type: section.type,
    enabled: true,
    configuration: Object.fromEntries(
      section.items.map((item) => [item.name, defaultValue(section, item, layout)]),
    ),
  }));
}

export interface ProviderTemplate extends TemplateContent {
  id: string;
}

export function providerTemplates(): ProviderTemplate[] {
  return TEMPLATE_COUNTRIES.flatMap((country) =>
    LAYOUTS.map((layout) => ({
      id: providerTemplateId(country, layout),
      title: TITLES[layout],
      level: 'provider' as const,
      countryCode: country,
      ...TEMPLATE_DEFAULTS,
      sections: defaultSections(country, layout),
    })),
  );
}

/** The request body shown in the API documentation: a user template for CZ. */
export function exampleTemplate(): Omit<TemplateContent, 'level'> & { level: 'user' } {
  return {
    title: 'Brochure for buyers',
    level: 'user',
    countryCode: 'CZ',
    ...TEMPLATE_DEFAULTS,
    sections: defaultSections('CZ', 'brochure'),
  };
}

/**
 * Makes the provider templates in the database exactly those of this release. Run at every
 * start; several processes may run it at once:
 * - ids are fixed, so a second run inserts nothing (`on conflict do update … where changed`
 *   rewrites a row only when a release changed its content, e.g. after a rules change);
 * - one transaction, whose first statement writes: SQLite takes its write lock there, and
 *   PostgreSQL's upsert waits for a concurrent one on the same ids, rows in id order so two
 *   runs cannot deadlock;
 * - provider templates of earlier releases that this one no longer ships are removed.
 */
export async function ensureProviderTemplates(db: AccountDb, now: Date): Promise<void> {
  const at = now.toISOString();
  const rows: TemplatesTable[] = providerTemplates()
    .map((t) => ({
      id: t.id,
      level: 'provider' as const,
      organization_id: null,
      user_id: null,
      ...contentColumns(t),
      created_at: at,
      updated_at: at,
    }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('templates')
      .where('level', '=', 'provider')
      .where(
        'id',
        'not in',
        rows.map((r) => r.id),
      )
      .execute();
    await trx
      .insertInto('templates')
      .values(rows)
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => ({
            title: eb.ref('excluded.title'),
            country_code: eb.ref('excluded.country_code'),
            rent_type: eb.ref('excluded.rent_type'),
            front_cover: eb.ref('excluded.front_cover'),
            back_cover: eb.ref('excluded.back_cover'),
            sections: eb.ref('excluded.sections'),
            updated_at: eb.ref('excluded.updated_at'),
          }))
          .where((eb) =>
            eb.or(
              (
                [
                  'title',
                  'country_code',
                  'rent_type',
                  'front_cover',
                  'back_cover',
                  'sections',
                ] as const
              ).map((column) => eb(`templates.${column}`, '<>', eb.ref(`excluded.${column}`))),
            ),
          ),
      )
      .execute();
  });
}
