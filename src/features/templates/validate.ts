import { BLANK_MESSAGE } from '../../http/schemas.js';
import { checkCountry, escapePointer, throwFieldErrors } from '../../http/field-errors.js';
import type { FieldError } from '../../http/problem.js';
import {
  itemCountries,
  itemsInCountry,
  sectionInCountry,
  SECTION_RULES,
  sectionRule,
  statedLayout,
  TEMPLATE_COUNTRIES,
  type ItemRule,
  type SectionType,
  type TemplateCountry,
} from './section-rules.js';
import type { Section, SectionInput, TemplateContent, TemplateInput } from './schemas.js';
import { TEMPLATE_DEFAULTS } from './template.js';

const list = (values: readonly string[]) => values.join(', ');

/** A country templates exist for, or `400 unsupported_country`. */
export const checkTemplateCountry = (countryCode: string): TemplateCountry =>
  checkCountry(countryCode, { supported: TEMPLATE_COUNTRIES, noun: 'template country' });

function valueError(item: ItemRule, value: unknown, section: SectionType): string | undefined {
  if (item.value.kind === 'boolean') {
    return typeof value === 'boolean' ? undefined : `must be a boolean in ${section}`;
  }
  return typeof value === 'string' && item.value.values.includes(value)
    ? undefined
    : `must be one of ${item.value.values.map((v) => JSON.stringify(v)).join(', ')} in ${section}`;
}

function checkConfiguration(
  section: SectionInput,
  path: string,
  country: TemplateCountry,
): FieldError[] {
  const errors: FieldError[] = [];
  const rule = sectionRule(section.type);
  const available = itemsInCountry(rule, country);
  for (const item of available) {
    const itemPath = `${path}/configuration/${item.name}`;
    if (!Object.hasOwn(section.configuration, item.name)) {
      errors.push({ path: itemPath, message: `is required for ${section.type} in ${country}` });
      continue;
    }
    const message = valueError(item, section.configuration[item.name], section.type);
    if (message) errors.push({ path: itemPath, message });
  }
  for (const name of Object.keys(section.configuration)) {
    if (available.some((item) => item.name === name)) continue;
    const itemPath = `${path}/configuration/${escapePointer(name)}`;
    const elsewhere = rule.items.find((item) => item.name === name);
    if (elsewhere) {
      errors.push({
        path: itemPath,
        message: `is not available for ${section.type} in ${country} (only ${list(itemCountries(rule, elsewhere))})`,
      });
    } else {
      const expected = available.length > 0 ? list(available.map((i) => i.name)) : 'none';
      errors.push({
        path: itemPath,
        message: `is not a configuration item of ${section.type} (in ${country}: ${expected})`,
      });
    }
  }
  return errors;
}

/**
 * Table 2.11 applied to one template: every section available in the country (and layout)
 * exactly once, each with exactly its items. Returns every problem found, each naming the
 * section and item by JSON pointer and in words.
 */
export function checkSections(
  sections: readonly SectionInput[],
  country: TemplateCountry,
): FieldError[] {
  const errors: FieldError[] = [];
  const layout = statedLayout(sections);
  const firstIndex = new Map<SectionType, number>();
  sections.forEach((section, index) => {
    const path = `/sections/${index}`;
    const rule = sectionRule(section.type);
    const first = firstIndex.get(section.type);
    if (first !== undefined) {
      errors.push({
        path: `${path}/type`,
        message: `${section.type} appears more than once (also at /sections/${first})`,
      });
      return;
    }
    firstIndex.set(section.type, index);
    if (!sectionInCountry(rule, country)) {
      errors.push({
        path: `${path}/type`,
        message: `${section.type} is not available in ${country} (only ${list(rule.only ?? [])})`,
      });
      return;
    }
    if (rule.onlyWithLayout && layout !== undefined && layout !== rule.onlyWithLayout) {
      errors.push({
        path: `${path}/type`,
        message: `${section.type} is only available with the ${rule.onlyWithLayout} layout (overview.layout is ${layout})`,
      });
      return;
    }
    errors.push(...checkConfiguration(section, path, country));
  });

  for (const rule of SECTION_RULES) {
    if (!sectionInCountry(rule, country) || firstIndex.has(rule.type)) continue;
    if (rule.onlyWithLayout === undefined) {
      errors.push({
        path: '/sections',
        message: `must include the ${rule.type} section in ${country}`,
      });
    } else if (layout === rule.onlyWithLayout) {
      // Without a valid layout (reported above) it is unknown whether this one is required.
      errors.push({
        path: '/sections',
        message: `must include the ${rule.type} section with the ${layout} layout`,
      });
    }
  }
  return errors;
}

/**
 * The semantic rules of a create or replace body, after the schema has checked its shape.
 * Returns the content to store: title trimmed, defaults filled in.
 */
export function checkTemplate(body: TemplateInput): TemplateContent {
  const countryCode = checkTemplateCountry(body.countryCode);
  const errors: FieldError[] = [];
  const title = body.title.trim();
  if (title.length === 0) errors.push({ path: '/title', message: BLANK_MESSAGE });
  errors.push(...checkSections(body.sections, countryCode));
  throwFieldErrors(errors);
  return {
    title,
    level: body.level,
    countryCode,
    rentType: body.rentType ?? TEMPLATE_DEFAULTS.rentType,
    frontCover: body.frontCover ?? TEMPLATE_DEFAULTS.frontCover,
    backCover: body.backCover ?? TEMPLATE_DEFAULTS.backCover,
    // Checked above: every configuration value is a boolean or a layout name.
    sections: body.sections.map((s): Section => ({
      type: s.type,
      enabled: s.enabled,
      configuration: s.configuration as Record<string, boolean | string>,
    })),
  };
}
