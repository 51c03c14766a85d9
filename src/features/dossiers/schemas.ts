import { Type, type Static, type TOptional, type TSchema, type TUnsafe } from 'typebox';
import { OneLineText, StrictObject, StringEnum } from '../../http/schemas.js';
import { limits } from '../../limits.js';
import { COUNTRIES } from '../../market/countries.js';
import { DEAL_TYPES } from '../../market/schema.js';
import { CONDITIONS, PRECISIONS, PROPERTY_CODES, QUALITIES, RATED_PARTS } from './dossier.js';
import { DOSSIER_EXTRAS, EXTRAS_TEXT, MODEL_EXTRAS, PostCode } from './property-extras.js';

const countryList = COUNTRIES.join(', ');

const text = (maxLength: number, description: string) =>
  OneLineText({ minLength: 1, maxLength, description });

const year = (description: string) => Type.Integer({ minimum: 1000, maximum: 2100, description });

type RatedPart = (typeof RATED_PARTS)[number];

const ratings = <const V extends readonly string[]>(values: V, description: string) =>
  StrictObject(
    Object.fromEntries(
      RATED_PARTS.map((part) => [part, Type.Optional(StringEnum(values))]),
    ) as Record<RatedPart, TOptional<TUnsafe<V[number]>>>,
    { description },
  );

export const CoordinatesBody = StrictObject(
  {
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
  },
  { description: 'WGS 84 degrees.' },
);

export const LOCATION_TEXT =
  '`coordinates`, or an `address.postCode` known to the divisions data of the country (its ' +
  'centroid is then used), are required. Read back, `coordinates` is the point used and ' +
  '`precision` says how it was found: `coordinates` (given) or `postcode` (the postcode’s ' +
  'centroid). Writing `precision: "postcode"` keeps a dossier postcode-precise (the centroid is ' +
  'looked up again and any `coordinates` sent are ignored), so a dossier read and written back ' +
  'unchanged stays the same. A known `address.postCode` beside `coordinates` must be centred ' +
  'within 50 km of them (else 400).';

/** The property, as dossiers hold it and as the valuation endpoint takes it. */
export const PropertyBody = StrictObject(
  {
    location: StrictObject(
      {
        address: Type.Optional(
          StrictObject({
            postCode: Type.Optional(PostCode),
            city: Type.Optional(text(200, 'City.')),
            street: Type.Optional(
              text(
                200,
                'Street (the house number may be part of it). Offers in the same street of the postcode, and with the house number in the same building, move the valuation (README "Valuation model").',
              ),
            ),
            houseNumber: Type.Optional(
              text(20, 'House number: offers in the same building move the valuation.'),
            ),
            buildingName: Type.Optional(text(200, 'Name of the building. Kept, not used.')),
            unitIdentifier: Type.Optional(
              text(100, 'The flat or unit within the building. Kept, not used.'),
            ),
          }),
        ),
        coordinates: Type.Optional(
          StrictObject(CoordinatesBody.properties, {
            description:
              'WGS 84 degrees. In a request, `{}` is no coordinates: it is removed before the ' +
              'body is checked (the Ruby client sends it for a property without them).',
          }),
        ),
        precision: Type.Optional(
          StringEnum(PRECISIONS, { description: 'How the point was found (see `location`).' }),
        ),

        uprn: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: 999_999_999_999,
            description: 'Unique Property Reference Number (United Kingdom). Kept, not used.',
          }),
        ),
      },
      { description: LOCATION_TEXT },
    ),
    propertyType: StrictObject({
      code: StringEnum(PROPERTY_CODES, {
        description:
          '`apartment` and `house` are valued; `multi_family_house` is kept on dossiers, but ' +
          'the market data holds no such offers, so valuing it is `422 insufficient_data`.',
      }),
      subcode: Type.Optional(text(50, 'Finer kind, free text (e.g. `penthouse`).')),
    }),
    // More than 0, said as a minimum: OpenAPI 3.0 has no numeric exclusiveMinimum.
    livingArea: Type.Number({
      minimum: 0.01,
      maximum: 100_000,
      description: 'm², 0.01–100000.',
    }),
    buildingYear: Type.Optional(year('1000–2100.')),
    landArea: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 10_000_000,
        description:
          "m², 0–10000000: a house's own plot (0: none): the parcel it stands on and its garden or grounds, not fields, meadows or woods sold with it (the market data counts them so). The valuation adjusts a house for it where at least 30 houses of its region state theirs (geo-DVF sales do); elsewhere, and for an apartment, it is not used.",
      }),
    ),
    numberOfRooms: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1000,
        multipleOf: 0.5,
        description:
          '0–1000, halves allowed. The valuation takes more than one room per 8 m² of living area for as many rooms as the size implies.',
      }),
    ),
    numberOfBedrooms: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    floorNumber: Type.Optional(
      Type.Integer({ minimum: -10, maximum: 300, description: '0 is the ground floor.' }),
    ),
    hasLift: Type.Optional(Type.Boolean()),
    isNew: Type.Optional(Type.Boolean()),
    renovationYear: Type.Optional(year('1000–2100, not before `buildingYear`.')),
    condition: Type.Optional(ratings(CONDITIONS, 'Condition of the parts of the building.')),
    quality: Type.Optional(ratings(QUALITIES, 'Quality of the parts of the building.')),
    ...MODEL_EXTRAS,
  },
  { description: `The property. ${EXTRAS_TEXT}` },
);

const dossierFields = {
  title: Type.Optional(text(200, '1–200 characters.')),
  description: Type.Optional(
    Type.String({ maxLength: 10_000, description: 'At most 10000 characters.' }),
  ),
  dealType: StringEnum(DEAL_TYPES, {
    description: 'What the dossier is about: a sale, or a rent (valuations follow it).',
  }),
  countryCode: Type.String({
    maxLength: 64,
    description: `One of ${countryList}; anything else is \`400 unsupported_country\`.`,
  }),
  askingSalePrice: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1e10, description: 'In the country’s main currency.' }),
  ),
  property: PropertyBody,
  ...DOSSIER_EXTRAS,
};

export const EXAMPLE_DOSSIER = {
  title: 'Flat in the first district',
  dealType: 'sale',
  countryCode: 'AT',
  askingSalePrice: 450000,
  property: {
    location: {
      address: { postCode: '1010', city: 'Wien', street: 'Graben', houseNumber: '12' },
      coordinates: { latitude: 48.2087, longitude: 16.3695 },
    },
    propertyType: { code: 'apartment' },
    livingArea: 72,
    buildingYear: 1910,
    numberOfRooms: 3,
    floorNumber: 2,
    hasLift: true,
    condition: { kitchen: 'well_maintained' },
  },
};

/** Create and replace take the same body. */
export const DossierBody = Object.assign(
  StrictObject(dossierFields, { description: 'A dossier: a property and what it is for.' }),
  { examples: [EXAMPLE_DOSSIER] },
);

/**
 * Replace also takes a dossier as a read gave it, so that a client can change what it read and
 * send it back: its read-only members are then checked (`id` must be the path's) or ignored
 * (`createdAt`, `updatedAt`: the service keeps the times).
 */
export const DossierReplace = Object.assign(
  StrictObject(
    {
      ...dossierFields,
      id: Type.Optional(
        Type.String({ format: 'uuid', description: 'Read-only: if sent, the id in the path.' }),
      ),
      createdAt: Type.Optional(Type.String({ description: 'Read-only: ignored.' })),
      updatedAt: Type.Optional(Type.String({ description: 'Read-only: ignored.' })),
    },
    { description: 'A dossier: a property and what it is for; or a dossier as read.' },
  ),
  { examples: [EXAMPLE_DOSSIER] },
);
export type DossierReplace = Static<typeof DossierReplace>;

export const DossierPatch = Object.assign(
  Type.Unsafe<Record<string, unknown>>({
    type: 'object',
    description:
      'A JSON merge patch (RFC 7396) of the dossier body: members given replace, `null` ' +
      'removes, nested objects merge, arrays and values replace. The result is validated as a ' +
      'whole body. The read-only members of a dossier as read may be sent: `id` must be this ' +
      'dossier’s (or null), `createdAt` and `updatedAt` are ignored (strings, or null; ' +
      'another type is refused, as by a replace).',
  }),
  { examples: [{ askingSalePrice: 430000, property: { floorNumber: 3, hasLift: null } }] },
);

export const DossierParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The dossier id.' }),
});

export const ListQuery = StrictObject({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: limits.dossiers.pageSize,
      default: limits.dossiers.defaultPageSize,
      description: `Items per page, 1–${limits.dossiers.pageSize} (default ${limits.dossiers.defaultPageSize}).`,
    }),
  ),
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: limits.dossiers.perOrganization,
      default: 0,
      description: 'Items to skip (default 0).',
    }),
  ),
});
export type ListQuery = Static<typeof ListQuery>;

const readFields = {
  id: Type.String({ format: 'uuid' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  ...dossierFields,
} satisfies Record<string, TSchema>;

export const DossierRead = Type.Object(readFields, { description: 'A dossier.' });
export type DossierRead = Static<typeof DossierRead>;

export const DossierList = Type.Object({
  items: Type.Array(DossierRead, { description: 'Newest first.' }),
  totalItems: Type.Integer({ description: 'Dossiers of the organization in all pages.' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const Created = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The new dossier’s id.' }),
});
