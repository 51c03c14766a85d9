import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { worldForSuite } from '../../../test/helpers/world.js';
import type { AccountDb } from '../../accounts/database.js';
import {
  defaultSections,
  ensureProviderTemplates,
  providerTemplateId,
  providerTemplates,
} from './provider-templates.js';
import { LAYOUTS, TEMPLATE_COUNTRIES } from './section-rules.js';
import { checkTemplate } from './validate.js';

const providerRows = (db: AccountDb) =>
  db.selectFrom('templates').selectAll().where('level', '=', 'provider').orderBy('id').execute();

it('ships an appraisal and a brochure template per country, each valid, with stable ids', () => {
  const templates = providerTemplates();
  expect(templates).toHaveLength(TEMPLATE_COUNTRIES.length * LAYOUTS.length);
  for (const country of TEMPLATE_COUNTRIES) {
    for (const layout of LAYOUTS) {
      const id = providerTemplateId(country, layout);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const template = templates.find((t) => t.id === id);
      expect(template?.countryCode).toBe(country);
      expect(template?.sections).toEqual(defaultSections(country, layout));
      expect(template && checkTemplate(template)).toMatchObject({ countryCode: country });
    }
  }
  expect(new Set(templates.map((t) => t.id)).size).toBe(templates.length);
  // Fixed forever: existing databases hold these ids.
  expect(providerTemplateId('DE', 'appraisal')).toBe(providerTemplateId('DE', 'appraisal'));
  expect(providerTemplateId('DE', 'appraisal')).not.toBe(providerTemplateId('DE', 'brochure'));
});

describeBackends('provider templates in the store', (backend) => {
  const world = worldForSuite(backend);

  it('exist once the app is ready, and a second run changes nothing', async () => {
    const db = world().stores.accounts.db;
    const first = await providerRows(db);
    expect(first.map((r) => r.id)).toEqual(
      providerTemplates()
        .map((t) => t.id)
        .sort(),
    );
    await ensureProviderTemplates(db, new Date(Date.now() + 60_000));
    expect(await providerRows(db)).toEqual(first);
  });

  it('restores a changed provider template and removes one this release does not ship', async () => {
    const db = world().stores.accounts.db;
    const before = await providerRows(db);
    const id = providerTemplateId('FR', 'brochure');
    await db
      .updateTable('templates')
      .set({ title: 'tampered', sections: '[]' })
      .where('id', '=', id)
      .execute();
    const stale = { ...before[0], id: randomUUID(), title: 'from an older release' };
    await db
      .insertInto('templates')
      .values(stale as NonNullable<(typeof before)[0]>)
      .execute();
    const org = await db
      .insertInto('templates')
      .values({
        ...(before[0] as NonNullable<(typeof before)[0]>),
        id: randomUUID(),
        level: 'organization',
        organization_id: world().adminA.organizationId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const later = new Date(Date.now() + 120_000);
    await ensureProviderTemplates(db, later);
    const after = await providerRows(db);
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    const restored = after.find((r) => r.id === id);
    const original = before.find((r) => r.id === id);
    expect(restored).toEqual({ ...original, updated_at: later.toISOString() });
    // Other levels are not the seeding's business.
    expect(
      await db.selectFrom('templates').select('id').where('id', '=', org.id).executeTakeFirst(),
    ).toEqual({ id: org.id });
  });
  // Several processes starting at once: test/cli/templates-start.test.ts (real processes).
});
