// Demo market data for benchmarks, generated once per size and seed and reused by later runs
// (generating 10 M offers takes minutes). `--fresh` regenerates.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDuck } from '../src/market/duck.js';
import { generateDemoData } from '../src/market/generate/generate.js';
import { countOffers } from '../src/market/market-info.js';
import { terminalProgress } from '../src/market/progress.js';
import { currentSnapshot, marketPaths } from '../src/market/snapshots.js';
import { MODEL_SUMS_VERSION } from '../src/valuation/model-sums.js';

const ROOT = path.join(os.tmpdir(), 'propdata-bench');
/** Part of the cache directory's name: bump it when the snapshot layout changes. */
const LAYOUT = 7;

export async function benchData(offers: number, args: string[]): Promise<string> {
  // The valuation's sums are part of the snapshot: data built with other feature formulas would
  // be valued without them (a query per region instead), so they name the directory too.
  const name = `offers-${String(offers)}-layout${String(LAYOUT)}`;
  const dir = path.join(ROOT, `${name}-sums${MODEL_SUMS_VERSION.slice(0, 8)}`);
  const reuse = !args.includes('--fresh') && (await countOffers(dir).catch(() => 0)) === offers;
  if (!reuse) {
    // Data of this size from an earlier layout or formulas is not used again.
    for (const old of fs.existsSync(ROOT) ? fs.readdirSync(ROOT) : [])
      if (old.startsWith(`offers-${String(offers)}-layout`))
        fs.rmSync(path.join(ROOT, old), { recursive: true, force: true });
    process.stderr.write(`generating ${offers.toLocaleString('en')} demo offers into ${dir}\n`);
    await generateDemoData(dir, {
      offers,
      projects: Math.max(1000, Math.round(offers / 200)),
      seed: 1,
      progress: terminalProgress(),
    });
  }
  return dir;
}

/** `--offers 1000000,10000000` (default) */
export function offerSizes(args: string[], fallback: number[]): number[] {
  const i = args.indexOf('--offers');
  const value = i >= 0 ? args[i + 1] : undefined;
  return value ? value.split(',').map((v) => Number(v.replaceAll('_', ''))) : fallback;
}

/** The current snapshot of a bench data dir, opened read-only in the benchmark process. */
export async function openBenchSnapshot(dataDir: string) {
  const file = currentSnapshot(marketPaths(dataDir));
  if (!file) throw new Error(`no snapshot in ${dataDir}`);
  const instance = await openDuck(file, { readOnly: true });
  const db = await instance.connect();
  return {
    file,
    db,
    close: () => {
      db.closeSync();
      instance.closeSync();
    },
  };
}
