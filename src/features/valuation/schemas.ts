import { Type, type Static } from 'typebox';
import { PatternText, StrictObject, StringEnum } from '../../http/schemas.js';
import { limits } from '../../limits.js';
import { COUNTRIES } from '../../market/countries.js';
import { DEAL_TYPES } from '../../market/schema.js';
import { BASIS_AREAS, CONFIDENCES } from '../../valuation/types.js';
import { CONDITIONS } from '../dossiers/dossier.js';
import { EXAMPLE_DOSSIER, PropertyBody } from '../dossiers/schemas.js';
import { DAY_OR_DATE_TIME_PATTERN } from './valuation-date.js';
import { NET_RENT_TEXT } from './rent-text.js';
import { LocationScoresSchema } from '../places/scores-schema.js';

export const Range = Type.Object({ lower: Type.Number(), upper: Type.Number() });

const RANGES_TEXT =
  'Ranges are meant to hold the true value about two times in three (one forecast ' +
  'standard deviation).';

/** What a value rests on (beyond the interface document: for a reader to weigh the value). */
const BasisSchema = Type.Object(
  {
    comparables: Type.Integer({
      minimum: 1,
      description:
        'How many comparable offers the value rests on (outliers left out; a flat advertised ' +
        'again counted once). They move the value from the regional model towards their own ' +
        'level as far as their number and agreement warrant.',
    }),
    area: StringEnum(BASIS_AREAS, {
      description:
        'Where they were found: within `radiusMeters` of the point (`radius`), or, where the ' +
        'search had to widen past 5 km or the property has no point, in its `postcode`, ' +
        '`municipality` or `district`; last of all, where its region holds too few, within ' +
        '5,000 m across the region’s boundary (`radius` again).',
    }),
    radiusMeters: Type.Optional(
      Type.Integer({ description: 'With `area: radius` only: the radius searched, in meters.' }),
    ),
    months: Type.Integer({
      description: 'Published within this many months before the valuation date.',
    }),
  },
  {
    description:
      'What the value rests on, in the requested deal type (a rent valuation’s, not its sale ' +
      'value’s). A value resting on fewer, farther or older offers has a wider range and a ' +
      'lower `confidence`.',
  },
);

/** Interface document 2.4. */
export const ValuationSchema = Type.Object(
  {
    confidence: StringEnum(CONFIDENCES, {
      description: 'How much the estimate rests on: `poor`, `medium` or `good`.',
    }),
    basis: BasisSchema,
    coordinates: Type.Object({ latitude: Type.Number(), longitude: Type.Number() }),
    currency: Type.String({ description: 'ISO 4217: the country’s main currency.' }),
    value: Type.Number({ description: 'In the deal type: sale price, or monthly gross rent.' }),
    valueRange: Range,
    salePrice: Type.Number({ description: 'The sale value, whatever the deal type.' }),
    salePriceRange: Range,
    rentGross: Type.Optional(
      Type.Number({ description: 'Rent valuations only: the monthly gross rent (= `value`).' }),
    ),
    rentGrossRange: Type.Optional(Range),
    rentNet: Type.Optional(
      Type.Number({ description: `Rent valuations only: the monthly net rent. ${NET_RENT_TEXT}` }),
    ),
    rentNetRange: Type.Optional(Range),
    // With `returnScores: true` only; the same for each date of an input.
    scores: Type.Optional(LocationScoresSchema),
  },
  { description: RANGES_TEXT },
);

/**
 * A Valuation of the valuation endpoints: also the day it is as of and its confidence under the
 * names the .NET client's Valuation reads (`valuationDate`, `valuationConfidence`, as the
 * dossier valuation's entries have them).
 */
export const DatedValuationSchema = Type.Object(
  {
    ...ValuationSchema.properties,
    valuationDate: Type.String({
      format: 'date',
      description:
        'The day the value is as of: the date asked for, or today for a date after today (the ' +
        'model does not forecast).',
    }),
    valuationConfidence: StringEnum(CONFIDENCES, {
      description: 'Same as `confidence`, under the name some clients read.',
    }),
  },
  { description: RANGES_TEXT },
);

/** A day, or a date-time whose day is used (clients send `2026-11-23T00:00:00`). */
export const DayText = PatternText(
  DAY_OR_DATE_TIME_PATTERN,
  'must be a day, YYYY-MM-DD, or an ISO 8601 date-time (2026-11-23T00:00:00, a zone optional)',
  {
    description:
      '`YYYY-MM-DD`, or an ISO 8601 date-time (`2026-11-23T00:00:00`, with or without zone) of ' +
      'which the date part is used.',
  },
);

export const DateText = Type.String({ format: 'date', description: '`YYYY-MM-DD`.' });

/** Valuation dates, as the request's or one input's. */
const valuationDates = (description: string) =>
  Type.Optional(
    Type.Array(DayText, {
      minItems: 1,
      maxItems: limits.valuation.maxPairs,
      description:
        `${description} None before the country’s first offer nor more than ` +
        `${String(limits.valuation.futureYears)} years after today; a date after today is ` +
        'valued as of today (the model does not forecast).',
    }),
  );

/**
 * The caller's language, as the PHP client puts it in every body it also sends as
 * `Accept-Language`: nothing in a valuation or a list of places depends on it.
 */
export const LanguageField = Type.Optional(
  Type.String({ maxLength: 35, description: 'Accepted and ignored: answers hold no text.' }),
);

/**
 * One valuation input: exactly one of `property` or `dossierId`, checked by the service
 * (validate.ts) so that an error names only the real problem, not every alternative.
 */
export const ValuationInput = StrictObject(
  {
    property: Type.Optional(PropertyBody),
    valuationDates: valuationDates(
      'This input’s own dates, instead of the request’s `valuationDates` (the .NET client sends ' +
        'them here).',
    ),
    dossierId: Type.Optional(
      Type.String({ format: 'uuid', description: 'A dossier of the caller’s organization.' }),
    ),
    buildingId: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Not supported (this service holds no building register): 400.',
      }),
    ),
    simulationId: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Not supported (this service holds no simulations): 400.',
      }),
    ),
  },
  {
    description:
      'Exactly one of `property` or `dossierId`; with neither, the request’s `dossierId` is ' +
      'valued.',
  },
);
export type ValuationInput = Static<typeof ValuationInput>;

export const countryText = `One of ${COUNTRIES.join(', ')}; anything else is \`400 unsupported_country\`.`;

export const PropertyValueRequest = Object.assign(
  StrictObject({
    dealType: StringEnum(DEAL_TYPES, {
      description: 'What `value` is: sale price or monthly rent.',
    }),
    valuationDates: valuationDates('Dates to value every input at (default: today).'),
    valuationInputs: Type.Array(ValuationInput, {
      minItems: 1,
      maxItems: limits.valuation.maxPairs,
      description: 'Each a `property` (as in a dossier) or a `dossierId`.',
    }),
    returnScores: Type.Optional(
      Type.Boolean({
        description:
          '`true`: each valuation carries `scores`, the location scores measured from the ' +
          'imported places data around the property (README "Location scores"). Condition and ' +
          'quality are not scored: the market data holds nothing to score them against.',
      }),
    ),
    dossierId: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'The dossier valued by each input that names neither a `property` nor a `dossierId` ' +
          '(the .NET client names it here, its inputs holding only their dates); ignored by ' +
          'inputs that name their own.',
      }),
    ),
    countryCode: Type.String({ maxLength: 64, description: countryText }),
    language: LanguageField,
  }),
  {
    examples: [
      {
        dealType: 'sale',
        valuationDates: ['2025-01-01'],
        valuationInputs: [{ property: EXAMPLE_DOSSIER.property }],
        countryCode: 'AT',
      },
    ],
  },
);
export type PropertyValueRequest = Static<typeof PropertyValueRequest>;

export const PropertyValueResponse = Type.Object({
  valuations: Type.Array(Type.Array(DatedValuationSchema), {
    description: 'One array per input, in request order, holding one Valuation per date.',
  }),
  confidence: StringEnum(CONFIDENCES, {
    description:
      'The least confidence among `valuations`: `good` only if every one is `good` (the .NET ' +
      'client reads a confidence for the whole answer).',
  }),
});

/**
 * The light valuation's answer: the Valuation at the top, as the .NET client reads it, and the
 * same Valuation as `valuations[0][0]`, the shape the original service answered in (recorded by
 * the PHP client). Each client ignores the other's members.
 */
export const LightValuationResponse = Type.Object(
  {
    ...DatedValuationSchema.properties,
    valuations: Type.Array(Type.Array(DatedValuationSchema), {
      description: 'The same Valuation, as `valuations[0][0]` (the full valuation’s shape).',
    }),
  },
  { description: RANGES_TEXT },
);

const P = PropertyBody.properties;

/** The light valuation's property: fewer facts, `condition` one rating for the whole. */
export const PropertyLightBody = StrictObject(
  {
    location: P.location,
    propertyType: P.propertyType,
    livingArea: P.livingArea,
    buildingYear: P.buildingYear,
    landArea: P.landArea,
    numberOfRooms: P.numberOfRooms,
    numberOfBedrooms: P.numberOfBedrooms,
    numberOfBathrooms: P.numberOfBathrooms,
    hasOpenKitchen: P.hasOpenKitchen,
    condition: Type.Optional(
      StringEnum(CONDITIONS, { description: 'Overall condition. Accepted, not used.' }),
    ),
  },
  { description: 'The property, as in a dossier but with fewer facts.' },
);

export const PropertyValueLightRequest = Object.assign(
  StrictObject({
    dealType: StringEnum(DEAL_TYPES, {
      description: 'What `value` is: sale price or monthly gross rent.',
    }),
    property: Type.Optional(PropertyLightBody),
    dossierId: Type.Optional(
      Type.String({ format: 'uuid', description: 'A dossier of the caller’s organization.' }),
    ),
    countryCode: Type.String({ maxLength: 64, description: countryText }),
    language: LanguageField,
  }),
  {
    examples: [
      {
        dealType: 'rent',
        property: {
          location: { address: { postCode: '1010', city: 'Wien' } },
          propertyType: { code: 'apartment' },
          buildingYear: 1910,
          livingArea: 48,
        },
        countryCode: 'AT',
      },
    ],
  },
);
export type PropertyValueLightRequest = Static<typeof PropertyValueLightRequest>;

/** One valuation of a dossier at a date, as the original service's dossier valuation gives it. */
export const DatedValuation = Type.Object({
  value: Type.Number({ description: 'Sale price, or monthly gross or net rent.' }),
  valueRange: Range,
  valuationDate: Type.String({ format: 'date' }),
  confidence: StringEnum(CONFIDENCES),
  valuationConfidence: StringEnum(CONFIDENCES, {
    description: 'Same as `confidence`, under the name some clients read.',
  }),
  currency: Type.String(),
});
export type DatedValuation = Static<typeof DatedValuation>;

const current = (what: string) =>
  Type.Union([DatedValuation, Type.Null()], {
    description: `${what} today; null when the market data cannot support it.`,
  });
const timeline = (what: string) =>
  Type.Array(DatedValuation, {
    description:
      `${what} on the first day of each of the last ${String(limits.valuation.timelineMonths)} ` +
      'months, oldest first; months the market data cannot support, or before its first ' +
      'offer, are left out.',
  });

export const DossierValuationRequest = StrictObject(
  {},
  {
    description:
      'Nothing to send: `{}` (the dossier says what is valued). `[]` is taken as `{}`: PHP ' +
      'encodes an empty array so, and the PHP SDK’s generic request sends nothing else.',
  },
);

export const DossierValuationResponse = Type.Object({
  valuationSale: current('The sale value'),
  valuationSaleTimeline: timeline('The sale value'),
  valuationRentGross: current('The monthly gross rent'),
  valuationRentGrossTimeline: timeline('The monthly gross rent'),
  valuationRentNet: current(`The monthly net rent (${NET_RENT_TEXT})`),
  valuationRentNetTimeline: timeline('The monthly net rent'),
  isValuationStale: Type.Boolean({
    description:
      'Whether the dossier’s previous valuation (the last answer of this endpoint for it, to ' +
      'any member of its organization) is out of date: true when a fact the model values ' +
      'changed since (location, type, areas, rooms, years, floor, lift, furnishing, balcony; ' +
      'not a title or description) or the market data has been replaced by a newer snapshot. ' +
      'The values of this answer are always of the dossier as it is and the current data: ' +
      'true tells a client keeping the previous answer to replace it. False for a first ' +
      'valuation, and when the previous one still holds.',
  }),
});
export type DossierValuationResponse = Static<typeof DossierValuationResponse>;
