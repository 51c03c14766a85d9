import { Type, type Static } from 'typebox';
import { OneLineText, StrictObject, type WithDefaults } from '../../http/schemas.js';
import { limits } from '../../limits.js';
import { CoordinatesBody } from '../dossiers/schemas.js';
import { countryText, LanguageField } from '../valuation/schemas.js';

const names = (description: string) =>
  Type.Array(
    OneLineText({ minLength: 1, maxLength: limits.pois.nameChars, description: 'A name.' }),
    { maxItems: limits.pois.names, description },
  );

export const PoisRequest = Object.assign(
  StrictObject({
    coordinates: CoordinatesBody,
    radius: Type.Optional(
      Type.Number({
        minimum: 1,
        maximum: limits.pois.maxRadius,
        default: limits.pois.defaultRadius,
        description: `Meters around \`coordinates\`, 1–${String(limits.pois.maxRadius)} (default ${String(limits.pois.defaultRadius)}).`,
      }),
    ),
    category: Type.Optional(
      names(`Categories (e.g. \`education\`, \`leisure\`); at most ${String(limits.pois.names)}.`),
    ),
    subcategory: Type.Optional(
      names(`Subcategories (e.g. \`kindergarten\`); at most ${String(limits.pois.names)}.`),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: limits.pois.maxOffset, default: 0 })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: limits.pois.maxLimit,
        default: limits.pois.defaultLimit,
        description: `Items per page, 1–${String(limits.pois.maxLimit)}.`,
      }),
    ),
    countryCode: Type.String({ maxLength: 64, description: countryText }),
    language: LanguageField,
  }),
  {
    examples: [
      {
        coordinates: { latitude: 48.2087, longitude: 16.3695 },
        radius: 1000,
        category: ['education', 'leisure'],
        offset: 0,
        limit: 10,
        countryCode: 'AT',
      },
    ],
  },
);
export type PoisRequest = Static<typeof PoisRequest>;
/** A points-of-interest request as validated: the schema's defaults filled in. */
export type ValidPoisRequest = WithDefaults<PoisRequest, 'radius' | 'offset' | 'limit'>;

export const Poi = Type.Object({
  category: Type.String(),
  subcategory: Type.String(),
  name: Type.Optional(Type.String()),
  distance: Type.Number({ description: 'Meters from `coordinates`.' }),
  source: Type.Optional(
    Type.String({
      description:
        'The attribution the place’s licence asks for (“© OpenStreetMap contributors (ODbL)”), ' +
        'to be shown with it; absent where the data names none.',
    }),
  ),
  location: Type.Object({
    coordinates: Type.Object({ latitude: Type.Number(), longitude: Type.Number() }),
    address: Type.Optional(
      Type.Object({
        postCode: Type.Optional(Type.String()),
        city: Type.Optional(Type.String()),
        street: Type.Optional(Type.String()),
        houseNumber: Type.Optional(Type.String()),
      }),
    ),
  }),
});

export const PoisResponse = Type.Object({
  items: Type.Array(Poi, { description: 'Nearest first.' }),
  totalItems: Type.Integer({ description: 'Matching points in all pages.' }),
});
export type PoisResponse = Static<typeof PoisResponse>;
