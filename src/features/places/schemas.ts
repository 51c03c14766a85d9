import { Type, type Static } from 'typebox';
import { StrictObject, StringEnum } from '../../http/schemas.js';
import { SOCIO_GROUPS } from '../../market/places/indicators.js';
import { CoordinatesBody } from '../dossiers/schemas.js';
import { countryText } from '../valuation/schemas.js';

export const IndicatorsRequest = Object.assign(
  StrictObject(
    {
      coordinates: Type.Optional(CoordinatesBody),
      dossierId: Type.Optional(
        Type.String({
          format: 'uuid',
          description: 'A dossier of the caller’s organization: its coordinates are used.',
        }),
      ),
      year: Type.Optional(
        Type.Integer({
          minimum: 1800,
          maximum: 2100,
          description: 'Values of this year or before, the latest of each (default: this year).',
        }),
      ),
      countryCode: Type.String({ maxLength: 64, description: countryText }),
    },
    { description: 'Exactly one of `coordinates` or `dossierId`.' },
  ),
  {
    examples: [{ coordinates: { latitude: 48.2087, longitude: 16.3695 }, countryCode: 'AT' }],
  },
);
export type IndicatorsRequest = Static<typeof IndicatorsRequest>;

const valueFields = {
  value: Type.Number(),
  unit: Type.Union([Type.String(), Type.Null()]),
  year: Type.Integer({ description: 'The year the value is for.' }),
  level: Type.Integer({ description: 'The division level the value is for (6, 8 or 100).' }),
  divisionId: Type.String(),
  divisionName: Type.String(),
  source: Type.Union([Type.String(), Type.Null()], {
    description: 'The attribution the data’s licence asks for, as imported; show it with it.',
  }),
};

export const IndicatorItem = Type.Object({
  indicator: Type.String(),
  group: Type.Union([StringEnum(SOCIO_GROUPS), Type.Null()], {
    description: 'The report group it is shown in; null for indicators no report shows.',
  }),
  ...valueFields,
  wider: Type.Union([Type.Object(valueFields), Type.Null()], {
    description: 'The same indicator of the next coarser division containing the point, if any.',
  }),
});

export const IndicatorsResponse = Type.Object({
  area: Type.Array(Type.Object({ level: Type.Integer(), id: Type.String(), name: Type.String() }), {
    description:
      'The divisions containing the point, finest first: the nearest postcode (level 100) and ' +
      'its level-8 and level-6 divisions, where the country has them. Empty without divisions.',
  }),
  items: Type.Array(IndicatorItem, {
    description: 'By indicator name: each from the finest division of `area` that has it.',
  }),
});
export type IndicatorsResponse = Static<typeof IndicatorsResponse>;
