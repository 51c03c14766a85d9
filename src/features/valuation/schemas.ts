import { Type, type Static } from 'typebox';
import { StrictObject, StringEnum } from '../../http/schemas.js';
import { limits } from '../../limits.js';
import { COUNTRIES } from '../../market/countries.js';
import { DEAL_TYPES } from '../../market/schema.js';
import { CONFIDENCES } from '../../valuation/types.js';
import { EXAMPLE_DOSSIER, PropertyBody } from '../dossiers/schemas.js';

const Range = Type.Object({ lower: Type.Number(), upper: Type.Number() });

/** Interface document 2.4. */
export const ValuationSchema = Type.Object(
  {
    confidence: StringEnum(CONFIDENCES, {
      description: 'How much the estimate rests on: `poor`, `medium` or `good`.',
    }),
    coordinates: Type.Object({ latitude: Type.Number(), longitude: Type.Number() }),
    currency: Type.String({ description: 'ISO 4217: the country’s main currency.' }),
    value: Type.Number({ description: 'In the deal type: sale price, or monthly gross rent.' }),
    valueRange: Range,
    salePrice: Type.Number({ description: 'The sale value, whatever the deal type.' }),
    salePriceRange: Range,
  },
  {
    description:
      'Ranges are meant to hold the true value about two times in three (one forecast ' +
      'standard deviation).',
  },
);

export const DateText = Type.String({ format: 'date', description: '`YYYY-MM-DD`.' });

const countryText = `One of ${COUNTRIES.join(', ')}; anything else is \`400 unsupported_country\`.`;

export const PropertyValueRequest = Object.assign(
  StrictObject({
    dealType: StringEnum(DEAL_TYPES, {
      description: 'What `value` is: sale price or monthly rent.',
    }),
    valuationDates: Type.Optional(
      Type.Array(DateText, {
        minItems: 1,
        maxItems: limits.valuation.maxPairs,
        description:
          'Dates to value at, none after today nor before the country’s first offer (default: ' +
          'today).',
      }),
    ),
    valuationInputs: Type.Array(
      Type.Union([
        StrictObject({ property: PropertyBody }),
        StrictObject({
          dossierId: Type.String({
            format: 'uuid',
            description: 'A dossier of the caller’s organization.',
          }),
        }),
      ]),
      {
        minItems: 1,
        maxItems: limits.valuation.maxPairs,
        description: 'Each a `property` (as in a dossier) or a `dossierId`.',
      },
    ),
    countryCode: Type.String({ maxLength: 64, description: countryText }),
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
  valuations: Type.Array(Type.Array(ValuationSchema), {
    description: 'One array per input, in request order, holding one Valuation per date.',
  }),
});
