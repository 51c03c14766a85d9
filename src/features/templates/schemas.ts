import { Type, type Static } from 'typebox';
import { OneLineText, StrictObject, StringEnum } from '../../http/schemas.js';
import { RENT_TYPES, TEMPLATE_LEVELS } from '../../accounts/tables.js';
import { limits } from '../../limits.js';
import { exampleTemplate } from './provider-templates.js';
import { SECTION_TYPES, TEMPLATE_COUNTRIES } from './section-rules.js';
import { TEMPLATE_DEFAULTS } from './template.js';

const countryList = TEMPLATE_COUNTRIES.join(', ');

export const SectionBody = StrictObject(
  {
    type: StringEnum(SECTION_TYPES, {
      description: 'Section type; which ones a template must hold depends on its country.',
    }),
    enabled: Type.Boolean({ description: 'Whether the section is shown in the PDF.' }),
    configuration: Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      additionalProperties: true,
      maxProperties: limits.templates.configurationItems,
      description:
        'Exactly the configuration items of this section type in the template country: booleans, ' +
        'and for `overview` the `layout` (`appraisal` or `brochure`); `{}` for sections without items.',
    }),
  },
  { description: 'One section of the PDF.' },
);
/** A section as the request schema lets it through: known type, any configuration object. */
export type SectionInput = Static<typeof SectionBody>;

const TITLE_DESCRIPTION = `1–${limits.templates.titleChars} characters; leading and trailing white space is removed.`;

/** Create and replace take the same body. */
export const TemplateBody = Object.assign(
  StrictObject(
    {
      title: OneLineText({
        minLength: 1,
        maxLength: limits.templates.titleChars,
        description: TITLE_DESCRIPTION,
      }),
      level: StringEnum(TEMPLATE_LEVELS, {
        description:
          '`user` (only its creator sees it) or `organization` (every member sees it; only admins ' +
          'may create, change or delete it). `provider` templates come with the service and are ' +
          'refused with 403.',
      }),
      countryCode: Type.String({
        maxLength: 64,
        description: `One of ${countryList}; anything else is \`400 unsupported_country\`.`,
      }),
      rentType: Type.Optional(
        StringEnum(RENT_TYPES, {
          default: TEMPLATE_DEFAULTS.rentType,
          description: 'Which rent the PDF shows when it contains rent valuations.',
        }),
      ),
      frontCover: Type.Optional(
        Type.Boolean({ default: TEMPLATE_DEFAULTS.frontCover, description: 'Show a front cover.' }),
      ),
      backCover: Type.Optional(
        Type.Boolean({ default: TEMPLATE_DEFAULTS.backCover, description: 'Show a back cover.' }),
      ),
      sections: Type.Array(SectionBody, {
        maxItems: SECTION_TYPES.length,
        description:
          'In PDF order. Every section type available in the country exactly once, each with ' +
          'exactly its configuration items; `valuation` only (and then required) with the ' +
          '`appraisal` layout. See the README, "Report templates", for the table by country.',
      }),
    },
    { description: 'A report template.' },
  ),
  { examples: [exampleTemplate()] },
);
/** A template body as the request schema lets it through (defaults filled in by ajv). */
export type TemplateInput = Static<typeof TemplateBody>;

export const TemplateParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The template id (`uuid` in lists).' }),
});

export const ListBody = StrictObject({
  countryCode: Type.String({
    maxLength: 64,
    description: `One of ${countryList}; anything else is \`400 unsupported_country\`.`,
  }),
});

export const SectionRead = Type.Object({
  type: StringEnum(SECTION_TYPES),
  enabled: Type.Boolean(),
  configuration: Type.Unsafe<Record<string, boolean | string>>({
    type: 'object',
    additionalProperties: { anyOf: [{ type: 'boolean' }, { type: 'string' }] },
  }),
});
export type Section = Static<typeof SectionRead>;

const templateFields = {
  title: Type.String(),
  level: StringEnum(TEMPLATE_LEVELS),
  countryCode: StringEnum(TEMPLATE_COUNTRIES),
  rentType: StringEnum(RENT_TYPES),
  frontCover: Type.Boolean(),
  backCover: Type.Boolean(),
  sections: Type.Array(SectionRead),
};

/** A template as it is stored and read back: checked, defaults filled in. */
export const TemplateContent = Type.Object(templateFields);
export type TemplateContent = Static<typeof TemplateContent>;

export const TemplateList = Type.Array(
  Type.Object({ uuid: Type.String({ format: 'uuid' }), ...templateFields }),
  {
    description:
      'Provider templates, then the organization’s, then the caller’s own; each group by ' +
      `creation time. At most ${limits.templates.perOrganization} organization and ` +
      `${limits.templates.perUser} user templates per caller, plus the provider ones.`,
  },
);

export const TemplateRead = Type.Array(TemplateContent, {
  minItems: 1,
  maxItems: 1,
  description: 'An array holding the one template, without its id (interface document 4.6).',
});

export const Created = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The new template’s id.' }),
});
