import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { isCountryCode } from '../../market/countries.js';
import { terminalProgress } from '../../market/progress.js';
import { currentSnapshot, marketPaths } from '../../market/snapshots.js';
import {
  ADDRESS_USES,
  type AddressUse,
  type BacktestReport,
  type Metrics,
} from '../../valuation/backtest.js';
import type { Accuracy, BaselineComparison } from '../../valuation/baseline-comparison.js';
import type { RatioInterval } from '../../valuation/ratio-interval.js';
import { CONFIDENCES, type DealType } from '../../valuation/types.js';
import { CliError, print } from '../context.js';

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '–');

function row(label: string, m: Metrics): string {
  return `| ${label} | ${m.count} | ${pct(m.mdape)} | ${pct(m.within10)} | ${pct(m.within20)} | ${pct(m.coverage)} |`;
}

const ADDRESS_LABELS: Record<AddressUse, string> = {
  building: 'in the same building',
  street: 'in the same street only',
  none: 'none',
};

function printReport(report: BacktestReport): void {
  print(
    `valued ${report.valued} of ${report.sampled} held-out offers (${report.insufficient} insufficient data); truth: ${report.truth === 'recorded' ? 'recorded true values' : 'observed prices'}`,
  );
  print();
  print('| confidence | offers | MdAPE | within ±10% | within ±20% | range holds truth |');
  print('|---|---|---|---|---|---|');
  print(row('all', report.overall));
  for (const k of CONFIDENCES) print(row(k, report.byConfidence[k]));
  if (report.byAddress.building.count + report.byAddress.street.count > 0) {
    print();
    print(
      '| offers at the address | offers | MdAPE | within ±10% | within ±20% | range holds truth |',
    );
    print('|---|---|---|---|---|---|');
    for (const k of ADDRESS_USES) print(row(ADDRESS_LABELS[k], report.byAddress[k]));
  }
  if (report.withoutRepeats) {
    print();
    print(
      'without the held-out offers that repeat an earlier one (same building, size and price):',
    );
    print(row('all but repeats', report.withoutRepeats));
  }
  print();
  print(`MdAPE vs observed prices: ${pct(report.mdapeObserved)}`);
  if (report.floor !== null) {
    print(
      `floor (true values vs observed prices): ${pct(report.floor)}; model vs observed / floor: ${(report.mdapeObserved / report.floor).toFixed(2)}`,
    );
  }
}

function accuracyRow(label: string, a: Accuracy): string {
  return `| ${label} | ${a.count} | ${pct(a.mdape)} | ${pct(a.within10)} | ${pct(a.within20)} | – |`;
}

const ratio = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const within = (i: RatioInterval | null) =>
  i === null ? '' : ` (${Math.round(i.level * 100)}% interval ${ratio(i.low)}–${ratio(i.high)})`;

function printComparison(c: BaselineComparison): void {
  const same = c.sameCases;
  print();
  print(
    `baselines from ${c.training} training offers: postcode median valued ${c.valued.postcode}, kNN-10 ${c.valued.nearest} of the held-out offers` +
      (c.valued.nearest === 0 ? ' (no coordinates: kNN-10 does not apply)' : ''),
  );
  print(`on the ${same.count} offers the model and the baselines all valued:`);
  print();
  print('| estimate | offers | MdAPE | within ±10% | within ±20% | range holds truth |');
  print('|---|---|---|---|---|---|');
  print(row('model', same.model));
  print(accuracyRow('postcode median price per m² × area', same.postcode));
  print(accuracyRow('kNN-10 same type and size, time-adjusted', same.nearest));
  print();
  print(
    `model / postcode median: ${ratio(same.ratio.postcode)}${within(same.interval.postcode)}; model / kNN-10: ${ratio(same.ratio.nearest)}${within(same.interval.nearest)}`,
  );
}

const pad = (n: number) => String(n).padStart(2, '0');
function isoDate(value: string): string {
  const d = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(d.getTime()))
    throw new CliError(`--split-date must be a date YYYY-MM-DD (got "${value}")`);
  const back = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (back !== value) throw new CliError(`--split-date: no such day ${value}`);
  return value;
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
    .option('--deal <type>', 'sale | rent (with --file: default sale)')
    .option(
      '--sample <n>',
      'offers to value, a seeded sample (default 2000; with --file: all held out)',
      integer('--sample', 1, 1_000_000),
    )
    .option('--seed <n>', 'sampling seed', integer('--seed', 0, 2 ** 31 - 1), 1)
    .option(
      '--file <file>',
      'instead of the market data: import this canonical offers file into a temporary data dir and value its offers from --split-date on from those before, with the baselines',
    )
    .option('--split-date <date>', 'with --file: offers from this day (YYYY-MM-DD) on are held out')
    .option('--json', 'with --file: print the report as JSON', false)
    .option(
      '--vienna-rent <file>',
      'instead: the Vienna real-rent benchmark on willhaben-vienna-rent.csv.gz (last 20% by first sighting from the first 80%)',
    )
    .action(
      async (options: {
        country?: string;
        deal?: string;
        sample?: number;
        seed: number;
        file?: string;
        splitDate?: string;
        json: boolean;
        viennaRent?: string;
      }) => {
        if (options.deal !== undefined && options.deal !== 'sale' && options.deal !== 'rent')
          throw new CliError('--deal must be sale or rent');
        if (options.file !== undefined && options.viennaRent !== undefined)
          throw new CliError('--file and --vienna-rent are separate benchmarks: give one');
        if (options.file === undefined && (options.splitDate !== undefined || options.json))
          throw new CliError('--split-date and --json go with --file');
        const progress = terminalProgress();
        // The comparables' tiles in memory take the service's budget (0: searched in SQL).
        const { placeTiles } = await import('../../valuation/place-tiles.js');
        placeTiles.reset(loadConfig().valuationCacheMb * 1024 * 1024);
        if (options.file !== undefined) {
          if (options.splitDate === undefined) throw new CliError('--file needs --split-date');
          if (options.country !== undefined)
            throw new CliError('--country does not apply to --file: the file is the market');
          await backtestFile(options.file, {
            splitDate: isoDate(options.splitDate),
            deal: options.deal ?? 'sale',
            seed: options.seed,
            json: options.json,
            ...(options.sample === undefined ? {} : { sample: options.sample }),
          });
          return;
        }
        // The model (DuckDB) is loaded when the command runs, not for every command.
        const [{ runBacktest }, { viennaBacktest }, { openDuck }, { connectSnapshot }] =
          await Promise.all([
            import('../../valuation/backtest.js'),
            import('../../valuation/vienna-backtest.js'),
            import('../../market/duck.js'),
            import('../../market/snapshot-connection.js'),
          ]);
        if (options.viennaRent) {
          const started = Date.now();
          const { ViennaRentFormatError } = await import('../../market/convert/vienna-rent.js');
          const result = await viennaBacktest(options.viennaRent, progress).catch(
            (error: unknown) => {
              throw error instanceof ViennaRentFormatError ? new CliError(error.message) : error;
            },
          );
          print(
            `Vienna rents: ${result.listings} listings, split at ${result.splitDate} (first sighting)`,
          );
          printReport(result.model);
          printComparison(result.baselines);
          print(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
          return;
        }
        const country = options.country?.toUpperCase();
        if (country !== undefined && !isCountryCode(country))
          throw new CliError(`--country: unknown country "${options.country ?? ''}"`);
        const file = currentSnapshot(marketPaths(loadConfig().dataDir));
        if (!file) throw new CliError('no market data: run `propdata generate` or import first');
        const instance = await openDuck(file, { readOnly: true });
        const db = await connectSnapshot(instance).catch((error: unknown) => {
          instance.closeSync();
          throw error;
        });
        try {
          const started = Date.now();
          const report = await runBacktest(db, {
            ...(country ? { country } : {}),
            ...(options.deal ? { deal: options.deal } : {}),
            sample: options.sample ?? 2000,
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

async function backtestFile(
  file: string,
  options: { splitDate: string; deal: DealType; sample?: number; seed: number; json: boolean },
): Promise<void> {
  const started = Date.now();
  // The model, the importer and DuckDB are loaded when the command runs, not for every command.
  const [{ fileBacktest, FileBacktestError }, { ImportFileError }] = await Promise.all([
    import('../../valuation/file-backtest.js'),
    import('../../market/import/source.js'),
  ]);
  try {
    const report = await fileBacktest(file, { ...options, progress: terminalProgress() });
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    if (options.json) {
      print(JSON.stringify({ ...report, seconds }, null, 2));
      return;
    }
    print(
      `${file}: ${report.imported} offers imported; ${report.training} ${report.deal} offers before ${report.splitDate} to value from, ${report.heldOut} from then on (10–2,000 m²)`,
    );
    const first = report.rejections[0];
    if (first)
      print(
        `  ${report.rejected} ${report.rejected === 1 ? 'row' : 'rows'} rejected by the import and left out (the first, line ${first.line}: ${first.reason})`,
      );
    printReport(report.model);
    printComparison(report.baselines);
    print(`took ${seconds.toFixed(1)} s`);
  } catch (error) {
    if (error instanceof FileBacktestError || error instanceof ImportFileError)
      throw new CliError(error.message);
    throw error;
  }
}
