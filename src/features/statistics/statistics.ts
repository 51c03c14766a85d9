import type { MarketStore } from '../../market/market-store.js';
import { computeStatistics } from './query.js';
import type { StatisticsRequest, StatisticsResponse } from './schemas.js';
import { checkStatisticsRequest } from './validate.js';

/** What offer statistics need: the market data and the smallest sample a value is shown for. */
export interface StatisticsDeps {
  market: MarketStore;
  minSample: number;
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
  return deps.market.read((db, view) =>
    computeStatistics(db, view, request, { minSample: deps.minSample }),
  );
}
