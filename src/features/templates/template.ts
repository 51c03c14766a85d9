import type { RentType } from '../../accounts/tables.js';
import type { TemplateContent } from './schemas.js';

/** The template model shared by validation, storage and the provider defaults. */

/** What a template gets when the body leaves a field out (interface document 4.5). */
export const TEMPLATE_DEFAULTS = {
  rentType: 'rent_gross',
  frontCover: true,
  backCover: true,
} as const satisfies { rentType: RentType; frontCover: boolean; backCover: boolean };

/** A stored template with its identity and owners. */
export interface Template extends TemplateContent {
  id: string;
  organizationId: string | null;
  userId: string | null;
  createdAt: string;
}
