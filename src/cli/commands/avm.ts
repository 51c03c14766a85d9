import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { isCountryCode } from '../../market/countries.js';
import { terminalProgress } from '../../market/progress.js';
import { currentSnapshot, marketPaths } from '../../market/snapshots.js';
import type { BacktestReport, Metrics } from '../../valuation/backtest.js';
import { CONFIDENCES } from '../../valuation/types.js';
import { CliError, print } from '../context.js';

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '–');

function row(label: string, m: Metrics): string {
  return `| ${label} | ${m.count} | ${pct(m.mdape)} | ${pct(m.within10)} | ${pct(m.within20)} | ${pct(m.coverage)} |`;
}

function printReport(report: BacktestReport): void {
  print(
    `valued ${report.valued} of ${report.sampled} held-out offers (${report.insufficient} insufficient data); truth: ${report.truth === 'recorded' ? 'recorded true values' : 'observed prices'}`,
  );
  print();
  print('| confidence | offers | MdAPE | within ±10% | within ±20% | range holds truth |');
  print('|---|---|---|---|---|---|');
  print(row('all', report.overall));
  for (const k of CONFIDENCES) print(row(k, report.byConfidence[k]));
  print();
  print(`MdAPE vs observed prices: ${pct(report.mdapeObserved)}`);
  if (report.floor !== null) {
    print(
      `floor (true values vs observed prices): ${pct(report.floor)}; model vs observed / floor: ${(report.mdapeObserved / report.floor).toFixed(2)}`,
    );
  }
}

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new CliError(`${name} must be an integer from ${min} to ${max}`);
    return n;
  };
}

export function registerAvmCommands(program: Command): void {
  const avm = program.command('avm').description('the valuation model');
  avm
    .command('backtest')
    .description('value held-out offers from the data published before them and report the errors')
    .option('--country <cc>', 'only offers of this country')
    .option('--deal <type>', 'sale | rent')
    .option('--sample <n>', 'offers to value', integer('--sample', 1, 1_000_000), 2000)
    .option('--seed <n>', 'sampling seed', integer('--seed', 0, 2 ** 31 - 1), 1)
    .option(
      '--vienna-rent <file>',
      'instead: the Vienna real-rent benchmark on willhaben-vienna-rent.csv.gz (last 20% by first sighting from the first 80%)',
    )
    .action(
      async (options: {
        country?: string;
        deal?: string;
        sample: number;
        seed: number;
        viennaRent?: string;
      }) => {
        const progress = terminalProgress();
        // The model (DuckDB) is loaded when the command runs, not for every command.
        const [{ runBacktest }, { viennaBacktest }, { openDuck }] = await Promise.all([
          import('../../valuation/backtest.js'),
          import('../../valuation/vienna-backtest.js'),
          import('../../market/duck.js'),
        ]);
        if (options.viennaRent) {
          const started = Date.now();
          const result = await viennaBacktest(options.viennaRent, progress);
          print(
            `Vienna rents: ${result.listings} listings, split at ${result.splitDate} (first sighting)`,
          );
          printReport(result.model);
          print(
            `naive baseline (postcode median rent per m² × area) MdAPE: ${pct(result.naiveMdape)}`,
          );
          print(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
          return;
        }
        const country = options.country?.toUpperCase();
        if (country !== undefined && !isCountryCode(country))
          throw new CliError(`--country: unknown country "${options.country ?? ''}"`);
        if (options.deal !== undefined && options.deal !== 'sale' && options.deal !== 'rent')
          throw new CliError('--deal must be sale or rent');
        const file = currentSnapshot(marketPaths(loadConfig().dataDir));
        if (!file) throw new CliError('no market data: run `propdata generate` or import first');
        const instance = await openDuck(file, { readOnly: true });
        const db = await instance.connect();
        try {
          const started = Date.now();
          const report = await runBacktest(db, {
            ...(country ? { country } : {}),
            ...(options.deal ? { deal: options.deal } : {}),
            sample: options.sample,
            seed: options.seed,
            progress,
          });
          printReport(report);
          print(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
        } finally {
          db.closeSync();
          instance.closeSync();
        }
      },
    );
}
