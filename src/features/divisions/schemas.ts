import { Type, type Static } from 'typebox';
import { COUNTRIES, DIVISION_LEVELS, type DivisionLevel } from '../../market/countries.js';
import { StrictObject, StringEnum } from '../../http/schemas.js';
import { limits } from '../../limits.js';

const Level = Type.Unsafe<DivisionLevel>({
  type: 'integer',
  enum: [...DIVISION_LEVELS],
  description: 'Administrative level (OSM admin_level): 6, 8, or 100 for postcodes.',
});

const CountryCode = StringEnum(COUNTRIES, { description: 'ISO 3166-1 alpha-2 country code.' });

export const DivisionQuery = StrictObject({
  countryCode: Type.Optional(CountryCode),
  level: Type.Optional(Level),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'Case-insensitive: part of the name, or the start of the id (white space in an id is not compared: `100 00` finds `10000`).',
    }),
  ),
  parentId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 40,
      description:
        'Only children of this division. A country may use one id at two levels (Switzerland: district 1001 and commune 1001): `parentLevel` says which is meant.',
    }),
  ),
  parentLevel: Type.Optional(
    Type.Unsafe<6 | 8>({
      type: 'integer',
      enum: [6, 8],
      description:
        "Only divisions whose parent is of this level: a postcode's is its level-8 division (6 where the country has none), a level-8 division's its level-6 division.",
    }),
  ),
  latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  // Optional to the caller; the schema's defaults fill them in before the handler.
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: limits.divisions.pageSize,
      default: limits.divisions.defaultPageSize,
    }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: limits.divisions.maxOffset, default: 0 }),
  ),
});
export type DivisionQuery = Static<typeof DivisionQuery>;

export const DivisionParams = StrictObject({
  countryCode: CountryCode,
  level: Level,
  id: Type.String({ minLength: 1, maxLength: 40 }),
});
export type DivisionParams = Static<typeof DivisionParams>;

export const Division = Type.Object({
  countryCode: Type.String(),
  level: Type.Integer(),
  id: Type.String({ description: 'Official id within country and level (the postcode for 100).' }),
  name: Type.String(),
  parentLevel: Type.Optional(Type.Integer()),
  parentId: Type.Optional(Type.String()),
  centroid: Type.Optional(
    Type.Object(
      { latitude: Type.Number(), longitude: Type.Number() },
      {
        description: 'Mean position of the postcodes/places in the division.',
      },
    ),
  ),
});
export type Division = Static<typeof Division>;

export const DivisionList = Type.Object({
  items: Type.Array(Division),
  totalItems: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
export type DivisionList = Static<typeof DivisionList>;
