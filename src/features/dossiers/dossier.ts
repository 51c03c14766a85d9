import type { Static } from 'typebox';
import type { CountryCode } from '../../market/countries.js';
import { PROPERTY_TYPES } from '../../market/schema.js';
import type { CoordinatesBody, DossierBody, PropertyBody } from './schemas.js';

/**
 * How a dossier's point was found: `coordinates` were given, or only a postcode was and the
 * point is that postcode's centroid (so the building may be a few hundred meters away).
 */
export const PRECISIONS = ['coordinates', 'postcode'] as const;
export type Precision = (typeof PRECISIONS)[number];

export const CONDITIONS = [
  'renovation_needed',
  'well_maintained',
  'new_or_recently_renovated',
] as const;
/**
 * Property types a dossier may hold: those of the market data (valued) and
 * `multi_family_house`, which clients of the original service send but no offer has.
 */
export const PROPERTY_CODES = [...PROPERTY_TYPES, 'multi_family_house'] as const;
export type PropertyCode = (typeof PROPERTY_CODES)[number];

export const QUALITIES = ['simple', 'normal', 'high_quality', 'luxury'] as const;
/** The parts of a building rated by `condition` and `quality`. */
export const RATED_PARTS = ['bathrooms', 'kitchen', 'flooring', 'windows', 'masonry'] as const;

export type Coordinates = Static<typeof CoordinatesBody>;
export type DossierProperty = Static<typeof PropertyBody>;
/** What a client writes: the request body of create and replace. */
export type DossierContent = Static<typeof DossierBody>;

/** A stored dossier: its content with the location resolved (coordinates and precision set). */
export interface Dossier {
  id: string;
  organizationId: string;
  creatorId: string | null;
  createdAt: string;
  updatedAt: string;
  countryCode: CountryCode;
  content: DossierContent & {
    property: DossierProperty & {
      location: { coordinates: Coordinates; precision: Precision };
    };
  };
}
