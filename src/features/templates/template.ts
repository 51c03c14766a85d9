import type { SectionType, TemplateCountry } from './section-rules.js';

/** The template model shared by validation, storage and the provider defaults. */

export const LEVELS = ['user', 'organization', 'provider'] as const;
export type Level = (typeof LEVELS)[number];

export const RENT_TYPES = ['rent_net', 'rent_gross'] as const;
export type RentType = (typeof RENT_TYPES)[number];

/** What a template gets when the body leaves a field out (interface document 4.5). */
export const TEMPLATE_DEFAULTS = {
  rentType: 'rent_gross',
  frontCover: true,
  backCover: true,
} as const satisfies { rentType: RentType; frontCover: boolean; backCover: boolean };

export const TITLE_MAX_LENGTH = 200;

export interface Section {
  type: SectionType;
  enabled: boolean;
  configuration: Record<string, boolean | string>;
}

/** A template's content: what a client sends and reads back. */
export interface TemplateContent {
  title: string;
  level: Level;
  countryCode: TemplateCountry;
  rentType: RentType;
  frontCover: boolean;
  backCover: boolean;
  sections: Section[];
}

/** A stored template with its identity and owners. */
export interface Template extends TemplateContent {
  id: string;
  organizationId: string | null;
  userId: string | null;
  createdAt: string;
}
