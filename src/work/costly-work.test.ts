import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends } from '../../test/helpers/backends.js';
import { expectProblem } from '../../test/helpers/problem.js';
import { holdTurn } from '../../test/helpers/turns.js';
import { fixedValuer } from '../../test/helpers/valuer.js';
import { call, createWorld, type Member, type World } from '../../test/helpers/world.js';
import { EXAMPLE_DOSSIER } from '../features/dossiers/schemas.js';
import { answerCost } from './cost.js';
import { CostlyWork } from './costly-work.js';

const STATISTICS = {
  countryCode: 'AT',
  filters: { divisionLevel6: '900', dealType: 'sale' },
  statistics: [{ type: 'count', metric: 'sale_price' }],
};
const VALUATION = {
  dealType: 'sale',
  countryCode: 'AT',
  valuationDates: ['2026-01-01', '2026-02-01'],
  valuationInputs: [{ property: { ...EXAMPLE_DOSSIER.property, livingArea: 50 } }],
};

describeBackends('costly requests: a budget per organization', (backend) => {
  let world: World;
  // Every statistics request and every valuation of two pairs or more is costly here; one runs
  // per organization, none waits.
  const work = new CostlyWork({
    statisticsCostly: 1,
    statisticsQueryCostly: 1,
    valuationPairsCostly: 2,
    slots: 2,
    perOrganization: 1,
    waitingPerOrganization: 0,
  });
  beforeAll(async () => {
    world = await createWorld(backend, {
      app: {
        costlyWork: work,
        now: () => new Date('2026-06-15T08:00:00Z'),
        valueProperty: fixedValuer({}, 5000),
      },
    });
  });
  afterAll(() => world.close());

  const post = (url: string, payload: object, who: Member) =>
    call(world.app, { method: 'POST', url, token: who.token, payload });

  /** Takes organization A's one slot until the returned function is called. */
  const occupyA = () => holdTurn(work.queue, world.memberA.organizationId);

  it('refuses an organization’s costly request beyond its budget with 429, while another organization’s runs', async () => {
    const release = occupyA();
    try {
      for (const [url, payload] of [
        ['/api/v1/offers/statistics', STATISTICS],
        ['/api/v1/valuation/property_value', VALUATION],
      ] as const) {
        const refused = await post(url, payload, world.memberA);
        expectProblem(refused, 429, 'rate_limited');
        expect(refused.headers['retry-after']).toBe('2');
        expect((await post(url, payload, world.memberB)).statusCode).toBe(200);
      }
      // A cheap request does not wait for the budget: one valuation pair.
      const cheap = await post(
        '/api/v1/valuation/property_value',
        { ...VALUATION, valuationDates: ['2026-01-01'] },
        world.memberA,
      );
      expect(cheap.statusCode, cheap.body).toBe(200);
    } finally {
      await release();
    }
    expect((await post('/api/v1/offers/statistics', STATISTICS, world.memberA)).statusCode).toBe(
      200,
    );
    expect(work.queue.size).toEqual({ running: 0, waiting: 0 });
  });
});

/**
 * A world whose statistics are costly from `statisticsCostly` units where the division's offers
 * are held in memory (`statsCacheMb` > 0) and never by their offers where DuckDB computes them,
 * and whose organizations get one turn and no waiting place.
 */
/** Member A's statistics request. */
const postStatistics = (world: World, payload: object) =>
  call(world.app, {
    method: 'POST',
    url: '/api/v1/offers/statistics',
    token: world.memberA.token,
    payload,
  });

async function statisticsWorld(statsCacheMb: string, statisticsCostly: number) {
  const work = new CostlyWork({
    statisticsCostly,
    statisticsQueryCostly: Number.MAX_SAFE_INTEGER,
    perOrganization: 1,
    waitingPerOrganization: 0,
  });
  const world = await createWorld('sqlite', {
    env: { PROPDATA_STATS_CACHE_MB: statsCacheMb },
    app: { costlyWork: work },
  });
  return { world, work };
}

describe('statistics are costly by the path that computes them', () => {
  // Costly from one unit more than the answer's one cell in memory, never by its offers in
  // DuckDB: the same request takes a turn where the division's offers are held in memory and
  // runs at once where DuckDB computes it.
  const worldWith = (statsCacheMb: string) => statisticsWorld(statsCacheMb, answerCost(1, 1) + 1);

  it.each([
    ['held in memory', '64', 429],
    ['computed by DuckDB', '0', 200],
  ])('%s', async (_path, statsCacheMb, status) => {
    const { world, work } = await worldWith(statsCacheMb);
    const release = holdTurn(work.queue, world.memberA.organizationId);
    try {
      const res = await postStatistics(world, STATISTICS);
      expect(res.statusCode, res.body).toBe(status);
    } finally {
      await release();
      await world.close();
    }
  });
});

describe('the cells of a statistics answer', () => {
  it('make a request costly on either path, however few offers it counts', async () => {
    // 50 statistics × 600 months: 30,000 cells over a division of a handful of offers.
    const body = {
      countryCode: 'AT',
      filters: {
        divisionLevel6: '900',
        dealType: 'sale',
        startDate: { min: '1975-01', max: '2024-12' },
      },
      statistics: Array.from({ length: 50 }, (_, i) => ({
        type: 'percentile',
        metric: 'sale_price',
        parameters: { percentileRank: 1 + i },
      })),
      groupBy: { field: 'start_date', period: 'month' },
    };
    expect(answerCost(50, 600)).toBeGreaterThanOrEqual(250_000);
    for (const statsCacheMb of ['64', '0']) {
      const { world, work } = await statisticsWorld(statsCacheMb, 250_000);
      const release = holdTurn(work.queue, world.memberA.organizationId);
      try {
        const res = await postStatistics(world, body);
        expect(res.statusCode, res.body).toBe(429);
        // One statistic of one group is cheap, on the same division.
        const one = await postStatistics(world, STATISTICS);
        expect(one.statusCode, one.body).toBe(200);
      } finally {
        await release();
        await world.close();
      }
    }
  });
});
