import type { ServiceDeps } from '../../app-context.js';
import { invalidField } from '../../http/field-errors.js';
import {
  computeOfferStatistics,
  type StatisticsGroupResult,
} from '../../market/queries/offer-statistics.js';
import { periodsBetween } from '../../market/queries/periods.js';
import { divisionOf, toOfferStatisticsQuery } from './market-query.js';
import { divisionFilter, type StatisticsRequest, type StatisticsResponse } from './schemas.js';
import { checkStatisticsRequest } from './validate.js';

/** What offer statistics need: the market data and the smallest sample a value is shown for. */
export type StatisticsDeps = Pick<ServiceDeps, 'market'> & { minSample: number };

/** A group of the answer: the key the query's results carry, and how the answer names it. */
interface Group {
  key: string;
  groupId?: string;
  groupLowerBound?: number;
  groupUpperBound?: number;
}

/** Every group the answer lists, those without offers included. */
function groupsOf(request: StatisticsRequest): Group[] {
  const { groupBy, filters } = request;
  if (!groupBy) return [{ key: 'all' }];
  if (groupBy.field === 'start_date') {
    const slots = periodsBetween(
      filters.startDate?.min ?? '',
      filters.startDate?.max ?? '',
      groupBy.period ?? 'month',
    );
    return slots.map((s) => ({ key: s.start, groupId: s.id }));
  }
  return (groupBy.groups ?? []).map((r, i) => ({
    key: String(i),
    groupId: String(i),
    ...(r.lowerBound !== undefined ? { groupLowerBound: r.lowerBound } : {}),
    ...(r.upperBound !== undefined ? { groupUpperBound: r.upperBound } : {}),
  }));
}

/** The answer: every group, each statistic with its value where the sample is large enough. */
function answerOf(
  request: StatisticsRequest,
  results: StatisticsGroupResult[],
  minSample: number,
): StatisticsResponse {
  const byKey = new Map(results.map((r) => [r.key, r]));
  return {
    items: groupsOf(request).map(({ key, ...group }) => {
      const result = byKey.get(key);
      return {
        ...group,
        statistics: request.statistics.map((stat, i) => {
          const n = result?.counts[stat.metric] ?? 0;
          const value =
            stat.type === 'count' ? n : n >= minSample ? (result?.values[i] ?? null) : null;
          return {
            type: stat.type,
            metric: stat.metric,
            ...(stat.parameters ? { parameters: stat.parameters } : {}),
            ...(value !== null ? { value } : {}),
          };
        }),
      };
    }),
  };
}

/**
 * The statistics of one request over the market data, the same for every caller: the rules a
 * schema cannot say, then one query on the current snapshot.
 */
export function offerStatistics(
  deps: StatisticsDeps,
  request: StatisticsRequest,
): Promise<StatisticsResponse> {
  checkStatisticsRequest(request);
  const query = toOfferStatisticsQuery(request);
  return deps.market.read(async (db, view) => {
    const { level, id } = divisionOf(request.filters);
    if (!view.hasDivision(request.countryCode, level, id)) {
      throw invalidField(
        `/filters/${divisionFilter(level)}`,
        'is not a known division of the country',
        {
          code: 'unknown_division',
          detail: `Division ${id} of level ${level} is unknown for ${request.countryCode}`,
        },
      );
    }
    return answerOf(request, await computeOfferStatistics(db, view, query), deps.minSample);
  });
}
