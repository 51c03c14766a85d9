import { throwFieldErrors } from '../../http/field-errors.js';
import type { FieldError } from '../../http/problem.js';
import { DIVISION_LEVELS, MAIN_CURRENCY } from '../../market/countries.js';
import { FILTER_COUNTRIES, METRIC_COUNTRIES } from './metrics.js';
import { periodCount } from '../../market/queries/periods.js';
import { RANGE_FILTERS, type RangeFilter } from '../../market/queries/offer-statistics.js';
import { limits } from '../../limits.js';
import { divisionFilter, type StatisticsRequest } from './schemas.js';

const RANGES = Object.keys(RANGE_FILTERS) as RangeFilter[];

/** The statistic each parameter belongs to. */
const PARAMETER_OWNER = {
  percentileRank: 'percentile',
  percentileValue: 'percentile_rank',
} as const;

/**
 * The contract's rules that a JSON schema cannot say (section 4 of the API contract). All
 * failures are collected, so one answer names every problem (up to the usual limit).
 */
export function checkStatisticsRequest(request: StatisticsRequest): void {
  const errors: FieldError[] = [];
  const fail = (path: string, message: string) => errors.push({ path, message });
  const { filters, countryCode, groupBy } = request;

  const divisionNames = DIVISION_LEVELS.map(divisionFilter);
  const divisions = divisionNames.filter((d) => filters[d] !== undefined);
  if (divisions.length !== 1) {
    fail(
      '/filters',
      `must have exactly one of ${divisionNames.join(', ')} (got ${divisions.length})`,
    );
  }
  if (filters.coordinates !== undefined && filters.radius === undefined)
    fail('/filters/radius', 'is required with coordinates');
  if (filters.radius !== undefined && filters.coordinates === undefined)
    fail('/filters/coordinates', 'is required with radius');
  const { min, max } = filters.startDate ?? {};
  if (min !== undefined && max !== undefined && min > max)
    fail('/filters/startDate', 'min must not be after max');
  if (filters.dealType === 'rent' && filters.salePrice)
    fail('/filters/salePrice', 'is not allowed with dealType rent');
  if (filters.dealType === 'sale' && filters.rentGross)
    fail('/filters/rentGross', 'is not allowed with dealType sale');
  for (const [name, only] of Object.entries(FILTER_COUNTRIES)) {
    if (filters[name as keyof typeof FILTER_COUNTRIES] !== undefined && !only.includes(countryCode))
      fail(`/filters/${name}`, `is only available for ${only.join(', ')}`);
  }
  for (const name of RANGES) {
    const range = filters[name];
    if (range?.min !== undefined && range.max !== undefined && range.min > range.max) {
      fail(`/filters/${name}`, 'min must not be greater than max');
    }
  }
  for (const name of ['salePrice', 'rentGross'] as const) {
    const currency = filters[name]?.currency;
    if (currency !== undefined && currency !== MAIN_CURRENCY[countryCode]) {
      fail(
        `/filters/${name}/currency`,
        `must be ${MAIN_CURRENCY[countryCode]}, the main currency of ${countryCode}`,
      );
    }
  }

  const metricAllowed = (metric: string, path: string) => {
    const only = METRIC_COUNTRIES[metric as keyof typeof METRIC_COUNTRIES];
    if (only && !only.includes(countryCode))
      fail(path, `${metric} is only available for ${only.join(', ')}`);
  };
  request.statistics.forEach((s, i) => {
    metricAllowed(s.metric, `/statistics/${i}/metric`);
    if (s.type === 'percentile' && s.parameters?.percentileRank === undefined) {
      fail(`/statistics/${i}/parameters/percentileRank`, 'is required for percentile');
    }
    if (s.type === 'percentile_rank' && s.parameters?.percentileValue === undefined) {
      fail(`/statistics/${i}/parameters/percentileValue`, 'is required for percentile_rank');
    }
    // A parameter of another statistic is a mistake to name, not to echo: a `mean` answered
    // with `percentileRank: 50` reads like a median.
    for (const [name, owner] of Object.entries(PARAMETER_OWNER)) {
      if (s.parameters?.[name as keyof typeof PARAMETER_OWNER] !== undefined && s.type !== owner)
        fail(`/statistics/${i}/parameters/${name}`, `applies only to ${owner}, not to ${s.type}`);
    }
  });

  if (groupBy) {
    if (groupBy.field === 'start_date') {
      if (groupBy.period === undefined)
        fail('/groupBy/period', 'is required when grouping by start_date');
      if (groupBy.groups !== undefined)
        fail('/groupBy/groups', 'is not allowed when grouping by start_date');
      if (min === undefined || max === undefined) {
        fail('/filters/startDate', 'min and max are required when grouping by start_date');
      } else if (
        groupBy.period &&
        min <= max &&
        periodCount(min, max, groupBy.period) > limits.statistics.periods
      ) {
        fail('/filters/startDate', `spans more than ${limits.statistics.periods} periods`);
      }
    } else {
      metricAllowed(groupBy.field, '/groupBy/field');
      if (groupBy.groups === undefined)
        fail('/groupBy/groups', `is required when grouping by ${groupBy.field}`);
      if (groupBy.period !== undefined)
        fail('/groupBy/period', 'is only allowed when grouping by start_date');
      groupBy.groups?.forEach((g, i) => {
        if (g.lowerBound === undefined && g.upperBound === undefined) {
          fail(`/groupBy/groups/${i}`, 'needs lowerBound, upperBound or both');
        } else if (
          g.lowerBound !== undefined &&
          g.upperBound !== undefined &&
          g.lowerBound > g.upperBound
        ) {
          fail(`/groupBy/groups/${i}`, 'lowerBound must not be greater than upperBound');
        }
      });
    }
  }

  throwFieldErrors(errors);
}
