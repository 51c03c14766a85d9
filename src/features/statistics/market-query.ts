import { invalidField } from '../../http/field-errors.js';
import { DIVISION_LEVELS, divisionIdOf, type DivisionLevel } from '../../market/countries.js';
import {
  RANGE_FILTERS,
  type OfferGrouping,
  type OfferSelection,
  type OfferStatisticsQuery,
  type RangeFilter,
} from '../../market/queries/offer-statistics.js';
import { divisionFilter, type Filters, type StatisticsRequest } from './schemas.js';

/** The division a request names (the schema and checkStatisticsRequest make it exactly one). */
export function divisionOf(filters: Filters): { level: DivisionLevel; id: string } {
  for (const level of DIVISION_LEVELS) {
    const id = filters[divisionFilter(level)];
    if (id !== undefined) return { level, id: divisionIdOf(level, id) };
  }
  throw invalidField('/filters', 'must have exactly one division');
}

function selectionOf(request: StatisticsRequest): OfferSelection {
  const { filters } = request;
  const ranges: OfferSelection['ranges'] = {};
  for (const name of Object.keys(RANGE_FILTERS) as RangeFilter[]) {
    const range = filters[name];
    if (range) ranges[name] = { min: range.min, max: range.max };
  }
  return {
    countryCode: request.countryCode,
    division: divisionOf(filters),
    dealType: filters.dealType,
    propertyType: filters.propertyType,
    isActive: filters.isActive,
    isNew: filters.isNew,
    isPrivate: filters.isPrivate,
    hasOpenKitchen: filters.hasOpenKitchen,
    ranges,
    months: { first: filters.startDate?.min, last: filters.startDate?.max },
    ...(filters.coordinates && filters.radius !== undefined
      ? { near: { point: filters.coordinates, radius: filters.radius } }
      : {}),
  };
}

function groupingOf(request: StatisticsRequest): OfferGrouping {
  const { groupBy } = request;
  if (!groupBy) return { by: 'all' };
  if (groupBy.field === 'start_date') return { by: 'period', period: groupBy.period ?? 'month' };
  return { by: 'value', metric: groupBy.field, ranges: groupBy.groups ?? [] };
}

/** A request (checked) as the market data's statistics query. */
export function toOfferStatisticsQuery(request: StatisticsRequest): OfferStatisticsQuery {
  return {
    selection: selectionOf(request),
    statistics: request.statistics.map((s) => ({
      type: s.type,
      metric: s.metric,
      percentileRank: s.parameters?.percentileRank,
      percentileValue: s.parameters?.percentileValue,
    })),
    grouping: groupingOf(request),
  };
}
