import type { DuckDBConnection } from '@duckdb/node-api';
import { queryChunks, queryPrepared } from '../market/duck.js';
import { copyVector } from '../market/queries/division-slice.js';
import { FEATURE_COUNT } from './features.js';
import type { MonthStats } from './hedonic.js';
import {
  COUNTRY_CELLS_TABLE,
  COUNTRY_WITHIN_TABLE,
  numbers,
  symmetricFromUpper,
} from './model-sums.js';
import type { CountryPool } from './pooled-index.js';

/**
 * Readers of the country tables a snapshot build writes with the model's sums (model-sums.ts):
 * what the country's price index is pooled from.
 */

/**
 * Per month: the cross products within the country's region-months, as `MonthStats` whose n is
 * 1 and Σx, Σy are 0, so that `fitHedonic` fits β on the variation within region-months.
 */
async function countryWithin(
  db: DuckDBConnection,
  countryCode: string,
  deal: string,
): Promise<MonthStats[]> {
  const k = FEATURE_COUNT;
  const rows = await queryPrepared(
    db,
    `select month, within from ${COUNTRY_WITHIN_TABLE}
      where country_code = $cc and deal_type = $deal order by month`,
    { cc: countryCode, deal },
  );
  return rows.map((r) => {
    const within = numbers(r.within);
    const sumXX = symmetricFromUpper(within, k);
    return {
      month: Number(r.month),
      n: 1,
      sumY: 0,
      sumX: new Array<number>(k).fill(0),
      sumXY: within.slice(0, k),
      sumXX,
    };
  });
}

/**
 * What the country's price index is pooled from, for one deal type. Undefined where the snapshot
 * has no stored sums: computing them would aggregate a whole country's offers, and such a
 * snapshot's regions keep their own index.
 */
export async function countryPoolSums(
  db: DuckDBConnection,
  countryCode: string,
  deal: string,
  precomputed: boolean,
): Promise<CountryPool | undefined> {
  if (!precomputed) return undefined;
  const k = FEATURE_COUNT;
  // Copied from the result's chunks into typed arrays: as JavaScript rows a big country's tens
  // of thousands of region-months cost three times more.
  const chunks = await queryChunks(
    db,
    `select region, month, n, sy, ${Array.from({ length: k }, (_, i) => `x${String(i)}`).join(', ')}
       from ${COUNTRY_CELLS_TABLE} where country_code = $cc and deal_type = $deal
      order by region, month`,
    { cc: countryCode, deal },
  );
  const length = chunks.reduce((sum, chunk) => sum + chunk.rowCount, 0);
  const region = new Int32Array(length);
  const month = new Int32Array(length);
  const n = new Float64Array(length);
  const sumY = new Float64Array(length);
  const sumX = new Float64Array(length * k);
  const x = new Float64Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    [region, month, n, sumY].forEach((array, column) => {
      copyVector(chunk.getColumnVector(column), array, offset);
    });
    for (let i = 0; i < k; i++) {
      copyVector(chunk.getColumnVector(4 + i), x, offset);
      for (let row = offset; row < offset + chunk.rowCount; row++) sumX[row * k + i] = x[row] ?? 0;
    }
    offset += chunk.rowCount;
  }
  return {
    within: await countryWithin(db, countryCode, deal),
    cells: { region, month, n, sumY, sumX },
  };
}
