import type { Caller } from '../../http/caller.js';
import { invalidField } from '../../http/field-errors.js';
import {
  computeOfferStatistics,
  type StatisticsGroupResult,
} from '../../market/queries/offer-statistics.js';
import { periodsBetween } from '../../market/queries/periods.js';
import { divisionOf, toOfferStatisticsQuery } from './market-query.js';
import { answerCost, statisticsCost } from '../../work/cost.js';
import type { CostlyWork } from '../../work/costly-work.js';
import type { MarketStore } from '../../market/market-store.js';
import { limits } from '../../limits.js';
import { Pacer } from '../../work/pacer.js';
import { divisionFilter, type StatisticsGroup, type StatisticsRequest } from './schemas.js';
import { checkStatisticsRequest } from './validate.js';

/** What offer statistics need: the market data and the smallest sample a value is shown for. */
export interface StatisticsDeps {
  market: MarketStore;
  minSample: number;
  /** The budget for costly requests, per organization. */
  work: CostlyWork;
}

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

/** A group of the answer: each statistic with its value where the sample is large enough. */
function groupAnswer(
  request: StatisticsRequest,
  group: Omit<Group, 'key'>,
  result: StatisticsGroupResult | undefined,
  minSample: number,
): StatisticsGroup {
  return {
    ...group,
    statistics: request.statistics.map((stat, i) => {
      const n = result?.counts[stat.metric] ?? 0;
      const value = stat.type === 'count' ? n : n >= minSample ? (result?.values[i] ?? null) : null;
      return {
        type: stat.type,
        metric: stat.metric,
        ...(stat.parameters ? { parameters: stat.parameters } : {}),
        ...(value !== null ? { value } : {}),
      };
    }),
  };
}

/** Groups of the answer's text are sent together up to about this many characters. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The JSON text of the answer (`StatisticsResponse`) in chunks of about CHUNK_CHARS: every
 * group, written one at a time by `serialize` (the group schema's serializer), with a turn for
 * the event loop whenever `pacer`'s time has passed. Built, serialized and sent in one piece,
 * an answer of 50 statistics over 600 months (30,000 cells, 1.5–3 MB) held the server's thread
 * 30–50 ms at once; other callers' `/health` took 27 ms at the median while one user sent such
 * requests one after another, 8 ms now (README "Costly requests").
 */
export async function answerChunks(
  request: StatisticsRequest,
  results: StatisticsGroupResult[],
  minSample: number,
  serialize: (group: StatisticsGroup) => string,
  pacer: Pacer,
): Promise<string[]> {
  const byKey = new Map(results.map((r) => [r.key, r]));
  const chunks: string[] = [];
  let batch = ['{"items":['];
  let chars = 0;
  let first = true;
  for (const { key, ...group } of groupsOf(request)) {
    const text = serialize(groupAnswer(request, group, byKey.get(key), minSample));
    batch.push(first ? text : `,${text}`);
    first = false;
    chars += text.length + 1;
    if (chars >= CHUNK_CHARS) {
      chunks.push(batch.join(''));
      [batch, chars] = [[], 0];
    }
    await pacer.pause();
  }
  batch.push(']}');
  chunks.push(batch.join(''));
  return chunks;
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
  serialize: (group: StatisticsGroup) => string,
): Promise<string[]> {
  checkStatisticsRequest(request);
  const query = toOfferStatisticsQuery(request);
  const { level, id } = divisionOf(request.filters);
  const rows = await deps.market.read((db, view) => {
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
    return deps.work.divisionRows.estimate(db, deps.market.snapshotFile, {
      countryCode: request.countryCode,
      level,
      id,
    });
  });
  // The cost of a request: the offers of its division × statistics × groups, measured against
  // the bound of the path that computes it; and its answer's cells, made on the server's thread
  // whichever path computed them.
  const [statistics, groups] = [request.statistics.length, groupsOf(request).length];
  const cost = statisticsCost(rows, statistics, groups);
  const cells = answerCost(statistics, groups);
  const { statisticsCostly, statisticsQueryCostly } = deps.work.options;
  const costly = deps.market.holdsInMemory(rows)
    ? cost + cells >= statisticsCostly
    : cost >= statisticsQueryCostly || cells >= statisticsCostly;
  return deps.work.run(caller.organizationId, costly, () =>
    deps.market.read((db, view) =>
      deps.work.queries('statistics', db, view, async (db, view) =>
        answerChunks(
          request,
          await computeOfferStatistics(db, view, query),
          deps.minSample,
          serialize,
          new Pacer(limits.statistics.sliceTurnMs, view.signal),
        ),
      ),
    ),
  );
}
