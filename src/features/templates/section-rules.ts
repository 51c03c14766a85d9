/**
 * Which report sections and configuration items exist in which country: table 2.11 of the
 * interface document, kept here as data and nowhere else. Validation, the provider templates
 * and their tests are all derived from this table.
 */

export const TEMPLATE_COUNTRIES = ['AT', 'BE', 'CH', 'CZ', 'DE', 'FR', 'JP', 'NL', 'SK'] as const;
export type TemplateCountry = (typeof TEMPLATE_COUNTRIES)[number];

export const LAYOUTS = ['appraisal', 'brochure'] as const;
export type Layout = (typeof LAYOUTS)[number];

export const SECTION_TYPES = [
  'overview',
  'comparables',
  'amenities',
  'market',
  'socio',
  'projects',
  'accessibility',
  'environment',
  'valuation',
  'cadastre',
  'attachments.floorplan',
  'attachments.permit',
  'attachments.marketing',
  'attachments.valuation',
  'attachments.other',
] as const;
export type SectionType = (typeof SECTION_TYPES)[number];

export type ItemKind = { kind: 'boolean' } | { kind: 'enum'; values: readonly string[] };

export interface ItemRule {
  name: string;
  value: ItemKind;
  /** Countries that have the item; absent: every country that has its section. */
  only?: readonly TemplateCountry[];
}

export interface SectionRule {
  type: SectionType;
  items: readonly ItemRule[];
  /** Countries that have the section; absent: every supported country. */
  only?: readonly TemplateCountry[];
  /** The section exists only with this `overview` layout, and is then required. */
  onlyWithLayout?: Layout;
}

/** The configuration item that decides the layout, on which other sections depend. */
export const LAYOUT_ITEM = { section: 'overview', item: 'layout' } as const;

/** The layout `sections` state in their `overview`, if a valid one. */
export function statedLayout(
  sections: readonly { type: string; configuration: Record<string, unknown> }[],
): Layout | undefined {
  const value = sections.find((s) => s.type === LAYOUT_ITEM.section)?.configuration[
    LAYOUT_ITEM.item
  ];
  return LAYOUTS.find((l) => l === value);
}

/** The kind of attachment an `attachments.<kind>` section shows; undefined for other types. */
export function attachmentKindOf(sectionType: string): string | undefined {
  const prefix = 'attachments.';
  return sectionType.startsWith(prefix) ? sectionType.slice(prefix.length) : undefined;
}

const BOOLEAN: ItemKind = { kind: 'boolean' };
const flag = (name: string, only?: readonly TemplateCountry[]): ItemRule =>
  only ? { name, value: BOOLEAN, only } : { name, value: BOOLEAN };

/** Table 2.11, in the interface document's order (which is also the provider templates' order). */
export const SECTION_RULES: readonly SectionRule[] = [
  { type: 'overview', items: [{ name: 'layout', value: { kind: 'enum', values: LAYOUTS } }] },
  {
    type: 'comparables',
    items: [
      flag('offers'),
      flag('offer_details'),
      flag('transactions', ['DE', 'FR']),
      flag('transaction_details', ['DE', 'FR']),
      flag('market_trends'),
    ],
  },
  {
    type: 'amenities',
    items: [flag('health'), flag('leisure'), flag('catering'), flag('shopping'), flag('education')],
  },
  { type: 'market', only: ['CH'], items: [] },
  {
    type: 'socio',
    only: ['AT', 'BE', 'CH', 'DE', 'FR', 'NL'],
    items: [
      flag('demographics'),
      flag('economics', ['AT', 'CH', 'DE', 'FR', 'NL']),
      flag('housing', ['AT', 'DE', 'FR']),
    ],
  },
  { type: 'projects', only: ['AT', 'CH', 'DE', 'FR', 'JP'], items: [] },
  { type: 'accessibility', items: [] },
  { type: 'environment', only: ['CH'], items: [flag('view'), flag('noise'), flag('nuisance')] },
  { type: 'valuation', onlyWithLayout: 'appraisal', items: [] },
  { type: 'cadastre', only: ['FR'], items: [] },
  { type: 'attachments.floorplan', items: [] },
  { type: 'attachments.permit', items: [] },
  { type: 'attachments.marketing', items: [] },
  { type: 'attachments.valuation', items: [] },
  { type: 'attachments.other', items: [] },
];

/**
 * Whether a report shows a section: it is enabled, and where its configuration has items that
 * choose what it shows (booleans), at least one is on. With all of them off it would show
 * nothing: a report leaves it out rather than print a heading over an empty page, or "no data"
 * where the template chose none.
 */
export function isShown(section: {
  enabled: boolean;
  configuration: Record<string, unknown>;
}): boolean {
  const choices = Object.values(section.configuration).filter((v) => typeof v === 'boolean');
  return section.enabled && (choices.length === 0 || choices.some((v) => v));
}

export function sectionRule(type: SectionType): SectionRule {
  const rule = SECTION_RULES.find((r) => r.type === type);
  if (!rule) throw new Error(`no rule for section type ${type}`);
  return rule;
}

export function sectionInCountry(rule: SectionRule, country: TemplateCountry): boolean {
  return rule.only === undefined || rule.only.includes(country);
}

/** The countries where an item exists: those of its section, narrowed by its own list. */
export function itemCountries(rule: SectionRule, item: ItemRule): readonly TemplateCountry[] {
  return TEMPLATE_COUNTRIES.filter(
    (c) => sectionInCountry(rule, c) && (item.only === undefined || item.only.includes(c)),
  );
}

export function itemsInCountry(rule: SectionRule, country: TemplateCountry): readonly ItemRule[] {
  return rule.items.filter((item) => itemCountries(rule, item).includes(country));
}

export interface AvailableSection {
  type: SectionType;
  items: readonly ItemRule[];
}

/** Every section a template of `country` with `layout` must hold, each with its items. */
export function sectionsFor(country: TemplateCountry, layout: Layout): AvailableSection[] {
  return SECTION_RULES.filter(
    (rule) =>
      sectionInCountry(rule, country) &&
      (rule.onlyWithLayout === undefined || rule.onlyWithLayout === layout),
  ).map((rule) => ({ type: rule.type, items: itemsInCountry(rule, country) }));
}
