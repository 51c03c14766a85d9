import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { MIN_SAMPLE_DEFAULT } from '../../config.js';
import { callerOf } from '../../http/auth.js';
import { featureRoutes } from '../../http/routes.js';
import { StatisticsGroup, StatisticsRequest, StatisticsResponse } from './schemas.js';
import { offerStatistics, type StatisticsDeps } from './statistics.js';

export function statisticsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps: StatisticsDeps = {
    market: ctx.stores.market,
    minSample: ctx.config.minSample,
    work: ctx.costlyWork,
  };
  featureRoutes(app, { auth: 'bearer', tags: ['statistics'] }).post(
    '/api/v1/offers/statistics',
    {
      operationId: 'getOfferStatistics',
      summary: 'Offer statistics for one division and period',
      description:
        'Mean, count, percentile (linear interpolation, as numpy/`percentile_cont`) and ' +
        'percentile rank (share of values at or below `percentileValue`, in percent) over the ' +
        'offers of exactly one division, optionally grouped by start month/quarter/year ' +
        '(every period from `startDate.min` to `.max`, empty ones included) or by value ranges ' +
        '(lower bound included, upper excluded). `value` is left out when a group has fewer ' +
        `values than the minimum sample (\`PROPDATA_MIN_SAMPLE\`, default ${String(MIN_SAMPLE_DEFAULT)}); \`count\` is always set.`,
      body: StatisticsRequest,
      response: { 200: StatisticsResponse },
      errors: [400, 413, 415],
    },
    async (request, reply) => {
      const serialize = reply.compileSerializationSchema(
        StatisticsGroup as unknown as Record<string, unknown>,
      ) as (group: StatisticsGroup) => string;
      const chunks = await offerStatistics(deps, callerOf(request), request.body, serialize);
      // The JSON text is sent as it is, a chunk at a time, not by the response schema's
      // serializer in one piece.
      return reply
        .type('application/json; charset=utf-8')
        .send(Readable.from(chunks, { objectMode: false }) as never);
    },
  );
}
