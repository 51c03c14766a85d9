// `npm run bench [-- name ...]`: runs the named benchmarks (default: all) and prints a
// Markdown table to paste into bench/RESULTS.md. Benchmarks are not tests: they measure.
import os from 'node:os';
import { benchFairness } from './fairness.js';
import { benchLoad } from './load.js';
import { benchLoadTail } from './load-tail.js';
import { benchMarket } from './market.js';
import { benchReports } from './reports.js';
import { benchStatistics } from './statistics.js';
import { benchValuation } from './valuation.js';

/** Each benchmark returns a Markdown table of its measurements. */
const BENCHMARKS: Record<string, (args: string[]) => Promise<string>> = {
  market: benchMarket,
  statistics: benchStatistics,
  valuation: benchValuation,
  load: benchLoad,
  fairness: benchFairness,
  'load-tail': benchLoadTail,
  reports: benchReports,
};

const args = process.argv.slice(2);
const names = args.filter((a) => a in BENCHMARKS);
const selected = names.length > 0 ? names : Object.keys(BENCHMARKS);
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
process.stdout.write(
  `\n${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} × ${cpu} · ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB · Node ${process.version}\n`,
);
for (const name of selected) {
  const run = BENCHMARKS[name];
  if (run) process.stdout.write(`\n## ${name}\n\n${await run(args)}\n`);
}
