import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuck, queryOne } from '../market/duck.js';
import { importFile, type ImportReport } from '../market/import/run-import.js';
import { silentProgress, type Progress } from '../market/progress.js';
import { currentSnapshot, marketPaths } from '../market/snapshots.js';
import { reportOf, valueHeldOut, type BacktestReport } from './backtest.js';
import { compareWithBaselines, type BaselineComparison } from './baseline-comparison.js';
import type { DealType } from './types.js';

/**
 * Imports an offers file into a temporary data dir and runs `work` on its snapshot. The dir is
 * removed afterwards, also when the work fails or the process is interrupted.
 */
export async function withImportedOffers<T>(
  file: string,
  progress: Progress,
  work: (db: DuckDBConnection, imported: ImportReport) => Promise<T>,
): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'propdata-backtest-'));
  const interrupted = (signal: NodeJS.Signals) => {
    try {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } finally {
      // Exit as a process killed by the signal would; re-raising it could be ignored.
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const dataDir = path.join(dir, 'data');
    const report = await importFile(dataDir, 'offers', file, { progress });
    const snapshot = currentSnapshot(marketPaths(dataDir));
    if (!snapshot) throw new Error('the import made no snapshot');
    const instance = await openDuck(snapshot, { readOnly: true });
    const db = await instance.connect();
    try {
      return await work(db, report);
    } finally {
      db.closeSync();
      instance.closeSync();
    }
  } finally {
    process.removeListener('SIGINT', interrupted);
    process.removeListener('SIGTERM', interrupted);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface FileBacktestOptions {
  splitDate: string;
  deal: DealType;
  /** Held-out offers to value, a seeded sample (default: all). */
  sample?: number;
  seed: number;
  progress?: Progress;
}

export interface FileBacktestReport {
  file: string;
  splitDate: string;
  deal: DealType;
  /** Offers imported from the file (all deal types). */
  imported: number;
  /** Rows the import refused (not valued, not used), and the first of them with the reason. */
  rejected: number;
  rejections: ImportReport['rejections'];
  /** Offers of the deal type before the split date: what the values rest on. */
  training: number;
  /** Offers of the deal type from the split date on, living area 10–2,000 m². */
  heldOut: number;
  model: BacktestReport;
  baselines: BaselineComparison;
}

/**
 * The backtest on a canonical offers file: every offer of the deal type from the split date on
 * (or a seeded sample of them) valued at its own date from the offers before the split date only,
 * by the model and by both baselines.
 */
export async function fileBacktest(
  file: string,
  options: FileBacktestOptions,
): Promise<FileBacktestReport> {
  if (!fs.existsSync(file)) throw new FileBacktestError(`${file} does not exist`);
  const progress = options.progress ?? silentProgress;
  return withImportedOffers(file, progress, async (db, { imported, rejected, rejections }) => {
    const counts = await queryOne(
      db,
      `select count(*) filter (where start_date < $split)::integer as training,
         count(*) filter (where start_date >= $split and living_area between 10 and 2000)::integer as held_out
       from offers where deal_type = $deal`,
      { split: options.splitDate, deal: options.deal },
    );
    const training = Number(counts?.training ?? 0);
    const heldOut = Number(counts?.held_out ?? 0);
    if (training === 0 || heldOut === 0)
      throw new FileBacktestError(
        `${file} has ${training} ${options.deal} offers before ${options.splitDate} and ${heldOut} from then on: both are needed`,
      );
    const held = await valueHeldOut(db, {
      deal: options.deal,
      splitDate: options.splitDate,
      seed: options.seed,
      progress,
      ...(options.sample === undefined ? {} : { sample: options.sample }),
    });
    const model = reportOf(
      held.flatMap((h) => (h.estimate ? [h.estimate] : [])),
      held.length,
    );
    const baselines = await compareWithBaselines(db, held, options);
    return {
      file,
      splitDate: options.splitDate,
      deal: options.deal,
      imported,
      rejected,
      rejections,
      training,
      heldOut,
      model,
      baselines,
    };
  });
}

/** A file the backtest cannot run on: the message says why. */
export class FileBacktestError extends Error {}
