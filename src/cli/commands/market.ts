import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { IMPORT_ENTITIES, type ImportEntity } from '../../market/import/entities.js';
import type { ImportReport } from '../../market/import/run-import.js';
import { terminalProgress } from '../../market/progress.js';
import { CliError, print } from '../context.js';

// The market code (DuckDB) is loaded when one of these commands runs, not for every command.
const runImport = () => import('../../market/import/run-import.js');
const importSource = () => import('../../market/import/source.js');
const snapshots = () => import('../../market/snapshots.js');

/** An import's summary and its rejected rows; `refused`: a --strict import that changed nothing. */
function printReport(report: ImportReport, refused = false): void {
  print(
    refused
      ? `${report.entity}: read ${report.read}, valid ${report.imported}, rejected ${report.rejected}; ` +
          'nothing imported, the market data is unchanged'
      : `${report.entity}: read ${report.read}, imported ${report.imported}, rejected ${report.rejected}; ` +
          `${report.total} ${report.entity} in the market data now`,
  );
  for (const r of report.rejections) print(`  line ${r.line}: ${r.reason}`);
  if (report.rejected > report.rejections.length) {
    print(`  … and ${report.rejected - report.rejections.length} more rejected rows`);
  }
}

function positiveInteger(name: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > max) {
      throw new CliError(`${name} must be an integer from 0 to ${max}`);
    }
    return n;
  };
}

export function registerMarketCommands(program: Command): void {
  program
    .command('import')
    .description(
      'import offers, building projects, divisions or places (points of interest, transit stops, area indicators) from CSV, NDJSON or Parquet (optionally .gz)',
    )
    .argument('<entity>', IMPORT_ENTITIES.join(' | '))
    .argument('<file>', 'file in the canonical format of the entity (see README)')
    .option(
      '--replace',
      'replace all rows of the entity instead of adding (same id: replaced)',
      false,
    )
    .option('--strict', 'refuse the whole file, changing nothing, if any row is invalid', false)
    .action(
      async (entity: string, file: string, options: { replace: boolean; strict: boolean }) => {
        if (!(IMPORT_ENTITIES as readonly string[]).includes(entity)) {
          throw new CliError(
            `entity must be one of ${IMPORT_ENTITIES.join(', ')} (got "${entity}")`,
          );
        }
        const config = loadConfig();
        const [{ importFile, StrictImportError }, { ImportFileError }, { ImportBusyError }] =
          await Promise.all([runImport(), importSource(), snapshots()]);
        try {
          const report = await importFile(config.dataDir, entity as ImportEntity, file, {
            replace: options.replace,
            strict: options.strict,
            progress: terminalProgress(),
          });
          printReport(report);
        } catch (error) {
          if (error instanceof StrictImportError) {
            printReport(error.report, true);
            throw new CliError(error.message);
          }
          if (error instanceof ImportFileError || error instanceof ImportBusyError) {
            throw new CliError(error.message);
          }
          throw error;
        }
      },
    );

  program
    .command('generate')
    .description(
      'replace offers, building projects and generated places with a deterministic demo market',
    )
    .option('--offers <n>', 'number of offers', positiveInteger('--offers', 50_000_000), 300_000)
    .option(
      '--projects <n>',
      'number of building projects',
      positiveInteger('--projects', 1_000_000),
      3000,
    )
    .option(
      '--seed <n>',
      'random seed: the same seed gives the same data',
      positiveInteger('--seed', 2 ** 31 - 1),
      1,
    )
    .action(async (options: { offers: number; projects: number; seed: number }) => {
      const config = loadConfig();
      const [{ generateDemoData }, { ImportBusyError }] = await Promise.all([
        import('../../market/generate/generate.js'),
        snapshots(),
      ]);
      const started = Date.now();
      try {
        const result = await generateDemoData(config.dataDir, {
          ...options,
          progress: terminalProgress(),
        });
        print(
          `generated ${result.offers} offers, ${result.projects} building projects, ${result.pois} points of interest, ${result.stops} transit stops and ${result.indicators} indicator values of ${result.divisions} divisions (seed ${options.seed}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
      } catch (error) {
        if (error instanceof ImportBusyError) throw new CliError(error.message);
        throw error;
      }
    });

  program
    .command('convert')
    .description('convert a known third-party dataset into the canonical import formats')
    .argument(
      '<dataset>',
      'vienna-rent: willhaben Vienna rental listings (shared/data/vienna-rent); dvf: Etalab geolocated DVF sales (one CSV per département and year, or a column subset); vienna-places: the places of Vienna (shared/data/vienna-places)',
    )
    .argument(
      '<source>',
      'the dataset file, e.g. willhaben-vienna-rent.csv.gz or 75.csv.gz; for vienna-places its folder',
    )
    .argument(
      '<target>',
      'canonical offers CSV to write (.csv or .csv.gz); for vienna-places a folder for pois.csv, transit.csv and indicators.csv',
    )
    .action(async (dataset: string, source: string, target: string) => {
      if (dataset !== 'vienna-rent' && dataset !== 'dvf' && dataset !== 'vienna-places')
        throw new CliError(`unknown dataset "${dataset}"; known: vienna-rent, dvf, vienna-places`);
      const { targetProblem } = await import('../../market/convert/target.js');
      const problem = targetProblem(source, target, { folder: dataset === 'vienna-places' });
      if (problem) throw new CliError(problem);
      if (dataset === 'vienna-places') {
        const { convertViennaPlaces, VIENNA_PLACES_ATTRIBUTION } =
          await import('../../market/convert/vienna-places.js');
        const result = await convertViennaPlaces(source, target).catch((error: unknown) => {
          throw new CliError((error as Error).message);
        });
        print(
          `wrote ${result.pois} points of interest, ${result.transit} transit stops (${result.transitSkipped} platforms without a position or name left out) and ${result.indicators} indicator values to ${target}`,
        );
        print(VIENNA_PLACES_ATTRIBUTION);
        return;
      }
      if (!/\.csv(\.gz)?$/.test(target)) throw new CliError('target must end in .csv or .csv.gz');
      if (dataset === 'dvf') {
        await convertDvfCommand(source, target);
        return;
      }
      const { convertViennaRent, ViennaRentFormatError } =
        await import('../../market/convert/vienna-rent.js');
      const result = await convertViennaRent(source, target).catch((error: unknown) => {
        throw error instanceof ViennaRentFormatError ? new CliError(error.message) : error;
      });
      print(
        `wrote ${result.rows} offers to ${target} (${result.skipped} listings of other kinds skipped)`,
      );
    });
}

async function convertDvfCommand(source: string, target: string): Promise<void> {
  const { convertDvf, DvfFormatError, DVF_SKIP_REASONS } =
    await import('../../market/convert/dvf.js');
  try {
    const result = await convertDvf(source, target);
    const skipped = result.sales - result.offers;
    print(
      `read ${result.rows} rows, ${result.sales} sales; wrote ${result.offers} offers to ${target}, skipped ${skipped} sales${skipped > 0 ? ':' : ''}`,
    );
    if (result.rowsWithoutId > 0)
      print(`  (${result.rowsWithoutId} rows without an id_mutation left out: no sale to join)`);
    for (const [reason, text] of Object.entries(DVF_SKIP_REASONS)) {
      const n = result.skipped[reason as keyof typeof DVF_SKIP_REASONS];
      if (n > 0) print(`  ${n} ${text}`);
    }
  } catch (error) {
    if (error instanceof DvfFormatError) throw new CliError(error.message);
    throw error;
  }
}
