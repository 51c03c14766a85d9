import { Type, type Static } from 'typebox';
import { StrictObject, StringEnum, type WithDefaults } from '../../http/schemas.js';
import { limits } from '../../limits.js';
import { COUNTRIES } from '../../market/countries.js';
import { DEAL_TYPES, PROJECT_STATUSES, PROPERTY_TYPES } from '../../market/schema.js';
import { DateText, ValuationSchema } from '../valuation/schemas.js';

const Point = Type.Object({ latitude: Type.Number(), longitude: Type.Number() });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const TrackerRequest = Object.assign(
  StrictObject({
    dossierId: Type.String({
      format: 'uuid',
      description: 'A dossier of the caller’s organization.',
    }),
    date: Type.Unsafe<string>({
      ...DateText,
      description:
        '`YYYY-MM-DD`: the date to value against; not after today, not before the country’s ' +
        'first offer.',
    }),
    countryCode: Type.String({
      maxLength: 64,
      description: `The dossier’s country (one of ${COUNTRIES.join(', ')}); another is a 400.`,
    }),
    radius: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: limits.tracker.maxRadius,
        default: limits.tracker.defaultRadius,
        description: `Meters, 1–${String(limits.tracker.maxRadius)} (default ${String(limits.tracker.defaultRadius)}), for offers, trends and building projects.`,
      }),
    ),
    usePostalCode: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Offers and trends from the dossier’s postcode instead of the radius (the dossier ' +
          'needs `address.postCode`). Building projects always use the radius.',
      }),
    ),
  }),
  {
    examples: [
      {
        dossierId: '3f8a6f0e-58a1-4a53-9c2b-3c1e1f0b9b6d',
        date: '2025-01-15',
        countryCode: 'AT',
        radius: 500,
      },
    ],
  },
);
export type TrackerRequest = Static<typeof TrackerRequest>;
/** A tracker request as validated: the schema's defaults filled in. */
export type ValidTrackerRequest = WithDefaults<TrackerRequest, 'radius' | 'usePostalCode'>;

export const OfferItem = Type.Object(
  {
    id: Type.String(),
    dealType: StringEnum(DEAL_TYPES),
    propertyType: StringEnum(PROPERTY_TYPES),
    coordinates: Nullable(Point),
    postalCode: Nullable(Type.String()),
    distance: Nullable(
      Type.Integer({
        description: 'Meters from the dossier, rounded; null for an offer without coordinates.',
      }),
    ),
    startDate: Type.String({ format: 'date' }),
    endDate: Nullable(Type.String({ format: 'date' })),
    isActive: Type.Boolean(),
    isNew: Nullable(Type.Boolean()),
    isPrivate: Nullable(Type.Boolean()),
    price: Nullable(
      Type.Number({ description: 'Sale price, or monthly gross rent, in `currency`.' }),
    ),
    pricePerSquareMeter: Nullable(Type.Number()),
    currency: Type.String(),
    livingArea: Nullable(Type.Number()),
    numberOfRooms: Nullable(Type.Number()),
    buildingYear: Nullable(Type.Integer()),
    daysOnMarket: Nullable(
      Type.Integer({ description: 'Null where the source does not say (a recorded sale).' }),
    ),
  },
  { description: 'An offer; unknown values are null.' },
);
export type OfferItem = Static<typeof OfferItem>;

export const ProjectItem = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    coordinates: Point,
    postalCode: Nullable(Type.String()),
    distance: Type.Integer({ description: 'Meters from the dossier, rounded.' }),
    status: StringEnum(PROJECT_STATUSES),
    numberOfUnits: Nullable(Type.Integer()),
    constructionStartYear: Nullable(Type.Integer()),
    completionYear: Nullable(Type.Integer()),
    isResidential: Type.Boolean(),
    isCommercial: Type.Boolean(),
  },
  { description: 'A building project; unknown values are null.' },
);
export type ProjectItem = Static<typeof ProjectItem>;

export const Trend = Type.Object({
  dateRange: Type.Object({
    min: Type.String({ format: 'date-time', description: 'Start of the first day.' }),
    max: Type.String({ format: 'date-time', description: 'End of the last day.' }),
  }),
  value: Type.Optional(
    Type.Number({ description: 'Mean price per m²; left out when `count` is 0.' }),
  ),
  count: Type.Integer({ description: 'Offers the mean is taken over.' }),
});
export type Trend = Static<typeof Trend>;

const list = <T extends Parameters<typeof Type.Array>[0]>(item: T, what: string) =>
  Type.Object({
    items: Type.Array(item, {
      maxItems: limits.tracker.maxItems,
      description: `At most ${String(limits.tracker.maxItems)} ${what}, nearest first.`,
    }),
    totalItems: Type.Integer({ description: `All ${what} found.` }),
  });

export const TrackerResponse = Type.Object({
  valuations: Type.Array(ValuationSchema, {
    minItems: 2,
    maxItems: 2,
    description: 'At `date`, then at today, in the dossier’s deal type.',
  }),
  valuationChangePercent: Nullable(
    Type.Number({
      description:
        '`(today − past) / past × 100` of `value`, rounded half away from zero to one decimal.',
    }),
  ),
  offers: list(OfferItem, 'offers'),
  building_projects: list(ProjectItem, 'building projects'),
  trends: Type.Array(Trend, { minItems: 2, maxItems: 2 }),
});
export type TrackerResponse = Static<typeof TrackerResponse>;
