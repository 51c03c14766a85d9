import { describe, expect, it } from 'vitest';
import { AppError, type FieldError } from '../../http/problem.js';
import { defaultSections, providerTemplates } from './provider-templates.js';
import {
  itemCountries,
  itemsInCountry,
  LAYOUTS,
  SECTION_RULES,
  SECTION_TYPES,
  sectionInCountry,
  sectionsFor,
  TEMPLATE_COUNTRIES,
  type Layout,
  type TemplateCountry,
} from './section-rules.js';
import type { Section, TemplateInput } from './schemas.js';
import { checkSections, checkTemplate, checkTemplateCountry } from './validate.js';

/** Asserts exactly one error, at `path`, with a message equal to or matching `message`. */
function expectOnly(errors: FieldError[], path: string, message: string | RegExp): void {
  expect(errors.map((e) => e.path)).toEqual([path]);
  if (typeof message === 'string') expect(errors[0]?.message).toBe(message);
  else expect(errors[0]?.message).toMatch(message);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const pointer = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');

/** Section types and items by country, written out by hand from table 2.11. */
const BY_HAND: Record<TemplateCountry, Record<string, string[]>> = (() => {
  const common = {
    overview: ['layout'],
    comparables: ['offers', 'offer_details', 'market_trends'],
    amenities: ['health', 'leisure', 'catering', 'shopping', 'education'],
    accessibility: [],
    valuation: [],
    'attachments.floorplan': [],
    'attachments.permit': [],
    'attachments.marketing': [],
    'attachments.valuation': [],
    'attachments.other': [],
  };
  const withTransactions = {
    comparables: [
      'offers',
      'offer_details',
      'transactions',
      'transaction_details',
      'market_trends',
    ],
  };
  return {
    AT: { ...common, socio: ['demographics', 'economics', 'housing'], projects: [] },
    BE: { ...common, socio: ['demographics'] },
    CH: {
      ...common,
      market: [],
      socio: ['demographics', 'economics'],
      projects: [],
      environment: ['view', 'noise', 'nuisance'],
    },
    CZ: { ...common },
    DE: {
      ...common,
      ...withTransactions,
      socio: ['demographics', 'economics', 'housing'],
      projects: [],
    },
    FR: {
      ...common,
      ...withTransactions,
      socio: ['demographics', 'economics', 'housing'],
      projects: [],
      cadastre: [],
    },
    JP: { ...common, projects: [] },
    NL: { ...common, socio: ['demographics', 'economics'] },
    SK: { ...common },
  };
})();

const sectionsOf = (country: TemplateCountry, layout: Layout): Section[] =>
  defaultSections(country, layout);

describe('section rules table', () => {
  it('has one rule per section type', () => {
    expect(SECTION_RULES.map((r) => r.type).sort()).toEqual([...SECTION_TYPES].sort());
  });

  it('never lists an item for a country its section lacks', () => {
    for (const rule of SECTION_RULES) {
      for (const item of rule.items) {
        for (const country of item.only ?? []) {
          expect(sectionInCountry(rule, country), `${rule.type}.${item.name} ${country}`).toBe(
            true,
          );
        }
      }
    }
  });

  it.each(TEMPLATE_COUNTRIES)('gives %s the sections and items of table 2.11', (country) => {
    const fromTable = Object.fromEntries(
      sectionsFor(country, 'appraisal').map((s) => [s.type, s.items.map((i) => i.name)]),
    );
    expect(fromTable).toEqual(BY_HAND[country]);
    const brochure = sectionsFor(country, 'brochure').map((s) => s.type);
    expect(brochure.sort()).toEqual(
      Object.keys(BY_HAND[country])
        .filter((t) => t !== 'valuation')
        .sort(),
    );
  });
});

describe.each(TEMPLATE_COUNTRIES)('template sections for %s', (country) => {
  describe.each(LAYOUTS)('%s layout', (layout) => {
    const base = sectionsOf(country, layout);

    it('the provider template passes', () => {
      const provider = providerTemplates().find(
        (t) => t.countryCode === country && t.sections[0]?.configuration.layout === layout,
      );
      expect(provider).toBeDefined();
      expect(checkSections(provider?.sections ?? [], country)).toEqual([]);
    });

    it('passes in any order and with sections disabled', () => {
      const shuffled = [...base].reverse().map((s, i) => ({ ...s, enabled: i % 2 === 0 }));
      expect(checkSections(shuffled, country)).toEqual([]);
    });

    it.each(base.map((s, i) => [s.type, i] as const))('refuses it without %s', (type, index) => {
      const sections = base.filter((_, i) => i !== index);
      expectOnly(
        checkSections(sections, country),
        '/sections',
        new RegExp(
          `^must include the ${escape(type)} section (in ${country}|with the appraisal layout)$`,
        ),
      );
    });

    const items = base.flatMap((s, i) =>
      Object.keys(s.configuration).map((name) => [`${s.type}.${name}`, i, name] as const),
    );
    describe.each(items)('item %s', (_, index, name) => {
      const path = `/sections/${index}/configuration/${name}`;
      const withConfiguration = (configuration: Record<string, unknown>) =>
        base.map((s, i) => (i === index ? { ...s, configuration } : s));
      const configuration = base[index]?.configuration ?? {};

      it('is required', () => {
        const rest = Object.fromEntries(Object.entries(configuration).filter(([k]) => k !== name));
        expect(checkSections(withConfiguration(rest), country)).toEqual([
          { path, message: `is required for ${base[index]?.type ?? ''} in ${country}` },
        ]);
      });

      it('must have its type', () => {
        const errors = checkSections(
          withConfiguration({ ...configuration, [name]: 'yes' }),
          country,
        );
        expectOnly(errors, path, /^must be (a boolean|one of "appraisal", "brochure") in /);
        const asNumber = checkSections(withConfiguration({ ...configuration, [name]: 1 }), country);
        expectOnly(asNumber, path, /^must be (a boolean|one of "appraisal", "brochure") in /);
      });
    });

    const foreignSections = SECTION_RULES.filter((r) => !sectionInCountry(r, country));
    if (foreignSections.length > 0) {
      it.each(foreignSections.map((r) => r.type))('refuses %s from another country', (type) => {
        const rule = SECTION_RULES.find((r) => r.type === type);
        const other = TEMPLATE_COUNTRIES.find((c) => rule && sectionInCountry(rule, c));
        const section = other && sectionsOf(other, layout).find((s) => s.type === type);
        expect(section).toBeDefined();
        if (!section) return;
        expectOnly(
          checkSections([...base, section], country),
          `/sections/${base.length}/type`,
          `${type} is not available in ${country} (only ${rule?.only?.join(', ') ?? ''})`,
        );
      });
    }

    const foreignItems = base.flatMap((s, index) => {
      const rule = SECTION_RULES.find((r) => r.type === s.type);
      if (!rule) return [];
      const here = itemsInCountry(rule, country);
      return rule.items
        .filter((item) => !here.includes(item))
        .map(
          (item) =>
            [`${s.type}.${item.name}`, index, item.name, itemCountries(rule, item)] as const,
        );
    });
    if (foreignItems.length > 0) {
      it.each(foreignItems)('refuses item %s from another country', (_, index, name, only) => {
        const sections = base.map((s, i) =>
          i === index ? { ...s, configuration: { ...s.configuration, [name]: true } } : s,
        );
        expect(checkSections(sections, country)).toEqual([
          {
            path: `/sections/${index}/configuration/${pointer(name)}`,
            message: `is not available for ${base[index]?.type ?? ''} in ${country} (only ${only.join(', ')})`,
          },
        ]);
      });
    }

    it.each(base.map((s, i) => [s.type, i] as const))('refuses %s twice', (type, index) => {
      const copy = base[index];
      if (!copy) return;
      expect(checkSections([...base, copy], country)).toEqual([
        {
          path: `/sections/${base.length}/type`,
          message: `${type} appears more than once (also at /sections/${index})`,
        },
      ]);
    });

    it.each(base.map((s, i) => [s.type, i] as const))(
      'refuses an unknown item in %s',
      (type, index) => {
        const sections = base.map((s, i) =>
          i === index ? { ...s, configuration: { ...s.configuration, colour: true } } : s,
        );
        expectOnly(
          checkSections(sections, country),
          `/sections/${index}/configuration/colour`,
          new RegExp(`^is not a configuration item of ${escape(type)} \\(in ${country}: `),
        );
      },
    );
  });

  it('refuses valuation with the brochure layout', () => {
    const brochure = sectionsOf(country, 'brochure');
    const valuation = sectionsOf(country, 'appraisal').find((s) => s.type === 'valuation');
    expect(valuation).toBeDefined();
    if (!valuation) return;
    expect(checkSections([...brochure, valuation], country)).toEqual([
      {
        path: `/sections/${brochure.length}/type`,
        message:
          'valuation is only available with the appraisal layout (overview.layout is brochure)',
      },
    ]);
  });

  it('requires valuation with the appraisal layout', () => {
    const sections = sectionsOf(country, 'appraisal').filter((s) => s.type !== 'valuation');
    expect(checkSections(sections, country)).toEqual([
      {
        path: '/sections',
        message: 'must include the valuation section with the appraisal layout',
      },
    ]);
  });

  it('refuses an unknown layout without guessing whether valuation is needed', () => {
    const sections = sectionsOf(country, 'appraisal').map((s) =>
      s.type === 'overview' ? { ...s, configuration: { layout: 'poster' } } : s,
    );
    expect(checkSections(sections, country)).toEqual([
      {
        path: '/sections/0/configuration/layout',
        message: 'must be one of "appraisal", "brochure" in overview',
      },
    ]);
  });
});

describe('checkSections', () => {
  it('reports every problem at once', () => {
    const sections = sectionsOf('CZ', 'brochure')
      .filter((s) => s.type !== 'amenities')
      .map((s) =>
        s.type === 'comparables' ? { ...s, configuration: { offers: true, cadastre: 1 } } : s,
      );
    const errors = checkSections(sections, 'CZ');
    expect(errors.map((e) => e.path)).toEqual([
      '/sections/1/configuration/offer_details',
      '/sections/1/configuration/market_trends',
      '/sections/1/configuration/cadastre',
      '/sections',
    ]);
  });

  it('refuses an empty list by naming every required section', () => {
    const errors = checkSections([], 'SK');
    expect(errors.map((e) => e.message)).toEqual(
      sectionsFor('SK', 'brochure').map((s) => `must include the ${s.type} section in SK`),
    );
  });
});

describe('checkTemplateCountry', () => {
  it.each(TEMPLATE_COUNTRIES)('accepts %s', (country) => {
    expect(checkTemplateCountry(country)).toBe(country);
  });

  it.each(['US', 'de', '', 'DEU', 'GB'])('refuses %j as unsupported_country', (country) => {
    try {
      checkTemplateCountry(country);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: 'unsupported_country',
        status: 400,
        errors: [{ path: '/countryCode' }],
      });
    }
  });
});

describe('checkTemplate', () => {
  const body = (over: Partial<TemplateInput> = {}): TemplateInput => ({
    title: 'Report',
    level: 'user',
    countryCode: 'NL',
    sections: sectionsOf('NL', 'brochure'),
    ...over,
  });

  it('fills in the defaults and trims the title', () => {
    const checked = checkTemplate(body({ title: '  My report \n' }));
    expect(checked).toMatchObject({
      title: 'My report',
      rentType: 'rent_gross',
      frontCover: true,
      backCover: true,
      countryCode: 'NL',
    });
  });

  it('keeps given values', () => {
    const checked = checkTemplate(
      body({ rentType: 'rent_net', frontCover: false, backCover: false }),
    );
    expect(checked).toMatchObject({ rentType: 'rent_net', frontCover: false, backCover: false });
  });

  it('refuses a blank title together with section errors', () => {
    expect(() => checkTemplate(body({ title: '   ', sections: [] }))).toThrow(
      /title must not be blank; sections must include the overview section in NL/,
    );
  });
});
