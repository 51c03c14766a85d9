import { Type, type Static, type TOptional } from 'typebox';
import { PatternText, StrictObject, StringEnum } from '../../http/schemas.js';
import { limits } from '../../limits.js';
import { COUNTRIES, DIVISION_LEVELS, type DivisionLevel } from '../../market/countries.js';
import { DEAL_TYPES, PROPERTY_TYPES } from '../../market/schema.js';
import { OFFER_METRICS, STATISTIC_TYPES } from '../../market/queries/offer-statistics.js';
import { PERIODS } from '../../market/queries/periods.js';
import { FILTER_COUNTRIES, METRIC_COUNTRIES, onlyForText } from './metrics.js';

/** Every number in a request lies within this bound (limits.statistics.maxNumber). */
const MAX_NUMBER = limits.statistics.maxNumber;
const bounded = { minimum: -MAX_NUMBER, maximum: MAX_NUMBER } as const;

const Month = PatternText('^[0-9]{4}-(0[1-9]|1[0-2])$', 'must be a month, YYYY-MM (01–12)', {
  description: 'A month, `YYYY-MM`.',
});

/** What every range filter says about offers without a value for its field. */
const RANGE_RULE =
  'Both ends included; an offer without a value passes no range, also one without bounds (`{}`).';

const IntRange = (description: string) =>
  StrictObject(
    { min: Type.Optional(Type.Integer(bounded)), max: Type.Optional(Type.Integer(bounded)) },
    { description: `${description} ${RANGE_RULE}` },
  );

const PriceRange = (description: string) =>
  StrictObject(
    {
      currency: Type.Optional(
        Type.String({ description: "The country's main currency (ISO 4217)." }),
      ),
      min: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_NUMBER })),
      max: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_NUMBER })),
    },
    { description: `${description} ${RANGE_RULE}` },
  );

export const StatisticItem = StrictObject({
  type: StringEnum(STATISTIC_TYPES),
  metric: StringEnum(OFFER_METRICS, {
    description: Object.entries(METRIC_COUNTRIES)
      .map(([metric, only]) => `\`${metric}\`: ${onlyForText(only)}`)
      .join(' '),
  }),
  parameters: Type.Optional(
    StrictObject({
      percentileRank: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 100,
          description:
            'For `percentile` (required; refused with any other type): which percentile.',
        }),
      ),
      percentileValue: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: MAX_NUMBER,
          description:
            'For `percentile_rank` (required; refused with any other type): the value to rank.',
        }),
      ),
    }),
  ),
});
export type StatisticItem = Static<typeof StatisticItem>;

/** The filter naming the division of one level, e.g. `divisionLevel8`. */
export type DivisionFilter = `divisionLevel${DivisionLevel}`;
export const divisionFilter = (level: DivisionLevel): DivisionFilter => `divisionLevel${level}`;

const DivisionId = Type.String({ minLength: 1, maxLength: 40 });
const divisionFilters = Object.fromEntries(
  DIVISION_LEVELS.map((level) => [divisionFilter(level), Type.Optional(DivisionId)]),
) as Record<DivisionFilter, TOptional<typeof DivisionId>>;

export const ValueGroup = StrictObject({
  lowerBound: Type.Optional(Type.Number({ ...bounded, description: 'Included.' })),
  upperBound: Type.Optional(Type.Number({ ...bounded, description: 'Excluded.' })),
});

export const Filters = StrictObject({
  dealType: Type.Optional(StringEnum(DEAL_TYPES)),
  startDate: Type.Optional(
    StrictObject(
      { min: Type.Optional(Month), max: Type.Optional(Month) },
      { description: 'First publication month, both ends included.' },
    ),
  ),
  coordinates: Type.Optional(
    StrictObject({
      latitude: Type.Number({ minimum: -90, maximum: 90 }),
      longitude: Type.Number({ minimum: -180, maximum: 180 }),
    }),
  ),
  radius: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: limits.statistics.maxRadiusMeters,
      description: 'Meters; needs `coordinates`.',
    }),
  ),
  isActive: Type.Optional(Type.Boolean()),
  isNew: Type.Optional(Type.Boolean()),
  isPrivate: Type.Optional(
    Type.Boolean({ description: '`true`: private offers; `false`: professional.' }),
  ),
  salePrice: Type.Optional(PriceRange('Sale price; only with `dealType` sale (or none).')),
  rentGross: Type.Optional(PriceRange('Monthly gross rent; only with `dealType` rent (or none).')),
  propertyType: Type.Optional(StringEnum(PROPERTY_TYPES)),
  livingArea: Type.Optional(IntRange('Living area in m².')),
  buildingYear: Type.Optional(IntRange('Building year.')),
  numberOfRooms: Type.Optional(
    StrictObject(
      { min: Type.Optional(Type.Number(bounded)), max: Type.Optional(Type.Number(bounded)) },
      { description: `Rooms. ${RANGE_RULE}` },
    ),
  ),
  hasOpenKitchen: Type.Optional(
    Type.Boolean({ description: onlyForText(FILTER_COUNTRIES.hasOpenKitchen) }),
  ),
  daysOnMarket: Type.Optional(IntRange('Days on market.')),
  ...divisionFilters,
});
export type Filters = Static<typeof Filters>;

export const StatisticsRequest = StrictObject(
  {
    statistics: Type.Array(StatisticItem, { minItems: 1, maxItems: limits.statistics.perRequest }),
    groupBy: Type.Optional(
      StrictObject({
        field: StringEnum([...OFFER_METRICS, 'start_date'] as const),
        groups: Type.Optional(
          Type.Array(ValueGroup, { minItems: 1, maxItems: limits.statistics.groups }),
        ),
        period: Type.Optional(StringEnum(PERIODS)),
      }),
    ),
    filters: Filters,
    countryCode: StringEnum(COUNTRIES),
  },
  {
    examples: [
      {
        // München (Kreisfreie Stadt), which the demo market fills well.
        countryCode: 'DE',
        filters: {
          divisionLevel6: '09162',
          dealType: 'sale',
          propertyType: 'apartment',
          startDate: { min: '2025-01', max: '2025-03' },
        },
        statistics: [
          { type: 'count', metric: 'sale_price_per_square_meter' },
          {
            type: 'percentile',
            metric: 'sale_price_per_square_meter',
            parameters: { percentileRank: 50 },
          },
        ],
        groupBy: { field: 'start_date', period: 'month' },
      },
    ],
  },
);
export type StatisticsRequest = Static<typeof StatisticsRequest>;

const StatisticResult = Type.Object({
  type: Type.String(),
  metric: Type.String(),
  parameters: Type.Optional(
    Type.Object({
      percentileRank: Type.Optional(Type.Integer()),
      percentileValue: Type.Optional(Type.Integer()),
    }),
  ),
  value: Type.Optional(Type.Number({ description: 'Left out when the group has too few values.' })),
});

const exampleGroup = (groupId: string, count: number, median?: number) => ({
  groupId,
  statistics: [
    { type: 'count', metric: 'sale_price_per_square_meter', value: count },
    {
      type: 'percentile',
      metric: 'sale_price_per_square_meter',
      parameters: { percentileRank: 50 },
      ...(median !== undefined ? { value: median } : {}),
    },
  ],
});

/** One group of the answer: written one at a time (statistics.ts `answerChunks`). */
export const StatisticsGroup = Type.Object({
  groupId: Type.Optional(Type.String()),
  groupLowerBound: Type.Optional(Type.Number()),
  groupUpperBound: Type.Optional(Type.Number()),
  statistics: Type.Array(StatisticResult),
});
export type StatisticsGroup = Static<typeof StatisticsGroup>;

export const StatisticsResponse = Type.Object(
  {
    items: Type.Array(StatisticsGroup),
  },
  {
    // The answer to the request example on the demo market (the figures vary with the day it
    // was generated on).
    examples: [
      {
        items: [
          exampleGroup('2025-01', 60, 6441.96),
          exampleGroup('2025-02', 62, 6312.58),
          exampleGroup('2025-03', 50, 6411.79),
        ],
      },
    ],
  },
);
export type StatisticsResponse = Static<typeof StatisticsResponse>;
