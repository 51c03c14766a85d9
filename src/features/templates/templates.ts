import type { ServiceDeps } from '../../app-context.js';
import { invalidField } from '../../http/field-errors.js';
import { notFound } from '../../http/problem.js';
import type { Caller } from '../../http/caller.js';
import { requireMayWrite } from './permissions.js';
import {
  deleteTemplate,
  findVisibleTemplate,
  insertTemplate,
  listVisibleTemplates,
  replaceTemplate,
} from './store.js';
import type { TemplateContent, TemplateInput } from './schemas.js';
import type { Template } from './template.js';
import { checkTemplate, checkTemplateCountry } from './validate.js';

/** The operations behind the routes: permission, then rules, then storage. */

/** What the template operations need: the account store and the time. */
export type TemplateDeps = Pick<ServiceDeps, 'db' | 'now' | 'organizationTurns'>;

export type ListedTemplate = TemplateContent & { uuid: string };

function contentOf(template: Template): TemplateContent {
  const { title, level, countryCode, rentType, frontCover, backCover, sections } = template;
  return { title, level, countryCode, rentType, frontCover, backCover, sections };
}

// The same error for a missing template and one the caller may not see.
const missing = () => notFound('Template');

export async function listTemplates(
  deps: TemplateDeps,
  caller: Caller,
  countryCode: string,
): Promise<ListedTemplate[]> {
  const templates = await listVisibleTemplates(deps.db, caller, checkTemplateCountry(countryCode));
  return templates.map((t) => ({ uuid: t.id, ...contentOf(t) }));
}

/** The template `id` as the caller sees it; 404 when they cannot see it. */
async function visibleTemplate(deps: TemplateDeps, caller: Caller, id: string): Promise<Template> {
  const template = await findVisibleTemplate(deps.db, caller, id);
  if (!template) throw missing();
  return template;
}

/** The template `id`, which the caller is about to change; 403 when they may only read it. */
async function writableTemplate(deps: TemplateDeps, caller: Caller, id: string): Promise<Template> {
  const template = await visibleTemplate(deps, caller, id);
  requireMayWrite(caller, template.level);
  return template;
}

export async function readTemplate(
  deps: TemplateDeps,
  caller: Caller,
  id: string,
): Promise<TemplateContent> {
  return contentOf(await visibleTemplate(deps, caller, id));
}

export async function createTemplate(
  deps: TemplateDeps,
  caller: Caller,
  body: TemplateInput,
): Promise<string> {
  const { level } = body;
  requireMayWrite(caller, level);
  const template = { ...checkTemplate(body), level };
  return deps.organizationTurns.run(caller.organizationId, () =>
    insertTemplate(deps.db, caller, template, deps.now()),
  );
}

export async function updateTemplate(
  deps: TemplateDeps,
  caller: Caller,
  id: string,
  body: TemplateInput,
): Promise<void> {
  const existing = await writableTemplate(deps, caller, id);
  if (body.level !== existing.level) {
    throw invalidField('/level', `must stay ${existing.level}`, {
      detail: `level cannot be changed (the template is a ${existing.level} template); create a new template instead`,
    });
  }
  if (!(await replaceTemplate(deps.db, caller, id, checkTemplate(body), deps.now()))) {
    throw missing();
  }
}

export async function removeTemplate(
  deps: TemplateDeps,
  caller: Caller,
  id: string,
): Promise<void> {
  await writableTemplate(deps, caller, id);
  if (!(await deleteTemplate(deps.db, caller, id))) throw missing();
}
