import type { Caller } from '../../http/caller.js';
import { DIVISION_LEVELS } from '../../market/countries.js';
import type { MarketStore } from '../../market/market-store.js';
import { statisticsCost } from '../../work/cost.js';
import type { CostlyWork } from '../../work/costly-work.js';
import { computeStatistics, statisticsQuery } from './query.js';
import { divisionFilter, type StatisticsRequest, type StatisticsResponse } from './schemas.js';
import { checkStatisticsRequest } from './validate.js';

/** What offer statistics need: the market data and the smallest sample a value is shown for. */
export interface StatisticsDeps {
  market: MarketStore;
  minSample: number;
  /** The budget for costly requests, per organization. */
  work: CostlyWork;
}

/** The cost of a request: the offers of its division × statistics × groups. */
async function requestCost(deps: StatisticsDeps, request: StatisticsRequest): Promise<number> {
  const level = DIVISION_LEVELS.find((l) => request.filters[divisionFilter(l)] !== undefined);
  const id = level === undefined ? undefined : request.filters[divisionFilter(level)];
  const rows =
    level === undefined || id === undefined
      ? 0
      : await deps.market.read((db) =>
          deps.work.divisionRows.estimate(db, deps.market.snapshotFile, {
            countryCode: request.countryCode,
            level,
            id,
          }),
        );
  return statisticsCost(rows, request.statistics.length, statisticsQuery(request).groups.length);
}

/**
 * The statistics of one request over the market data, the same for every caller: the rules a
 * schema cannot say, then one query on the current snapshot, with a deadline, in the caller's
 * organization's turn when the request is costly.
 */
export async function offerStatistics(
  deps: StatisticsDeps,
  caller: Caller,
  request: StatisticsRequest,
): Promise<StatisticsResponse> {
  checkStatisticsRequest(request);
  const costly = (await requestCost(deps, request)) >= deps.work.options.statisticsCostly;
  return deps.work.run(caller.organizationId, costly, () =>
    deps.market.read((db, view) =>
      deps.work.queries('statistics', db, view, (db, view) =>
        computeStatistics(db, view, request, { minSample: deps.minSample }),
      ),
    ),
  );
}
