import type { Command } from 'commander';
import { seedDemoAccounts, type DemoAccount } from '../../accounts/demo-accounts.js';
import { postgresConnectionRoom } from '../../accounts/database.js';
import { loadConfig, type Config } from '../../config.js';
import { terminalProgress } from '../../market/progress.js';
import { CliError, print } from '../context.js';
import { isWorker, superviseWorkers } from '../workers.js';

/** Size of the demo market made on a first `npm start`: enough to explore every division. */
const DEMO_OFFERS = 300_000;
const DEMO_PROJECTS = 3000;
const DEMO_SEED = 1;
/** How often a start waiting for another process's market import looks again. */
const LOCK_POLL_MS = 500;

function printDemoAccounts(config: Config, accounts: DemoAccount[]): void {
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const first = accounts[0];
  print();
  print('First start: created demo accounts in organization "Demo Realty" (shown only this once):');
  for (const a of accounts) {
    print(`  ${a.isAdmin ? 'admin' : 'user '}  username ${a.username}  password ${a.password}`);
    print(`         token ${a.token}`);
  }
  print();
  print('Try it:');
  print(`  curl -s ${base}/health`);
  if (first) {
    print(`  curl -s -H 'Authorization: Bearer ${first.token}' ${base}/api/v1/me`);
    print(
      `  curl -s -X POST ${base}/auth/login/credentials -H 'Content-Type: application/json' ` +
        `-d '{"username":"${first.username}","password":"${first.password}"}'`,
    );
  }
  print(`  API documentation: ${base}/docs`);
  print();
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the HTTP API')
    .option(
      '--demo',
      'on a brand-new data dir, generate demo market data and create demo accounts',
      false,
    )
    .option(
      '--workers <n>',
      'run N processes on the same port, sharing the account database and market data',
      parseWorkers,
      1,
    )
    .action(async (options: { demo: boolean; workers: number }) => {
      const config = loadConfig();
      // The server and the market code (DuckDB) are loaded when the command runs, so that the
      // other commands start without them.
      const [
        { startServer },
        { openStores },
        { generateDemoData },
        { countOffers },
        { ImportBusyError },
      ] = await Promise.all([
        import('../../server.js'),
        import('../../stores.js'),
        import('../../market/generate/generate.js'),
        import('../../market/market-info.js'),
        import('../../market/snapshots.js'),
      ]);
      if (isWorker()) {
        // The primary has prepared the stores (migrations, market data, demo accounts).
        await startServer(config, await openStores(config));
        return;
      }
      // Another process writing this data dir's market data (a server starting at the same
      // time, an import) holds its lock: wait for it, then use what it wrote.
      let told = false;
      const prepare = async () => {
        for (;;) {
          try {
            if (options.demo && (await countOffers(config.dataDir)) === 0) {
              print(
                `First start: generating ${DEMO_OFFERS} demo offers and their places (under a minute)…`,
              );
              await generateDemoData(config.dataDir, {
                offers: DEMO_OFFERS,
                projects: DEMO_PROJECTS,
                seed: DEMO_SEED,
                progress: terminalProgress(),
              });
            }
            return await openStores(config);
          } catch (error) {
            if (!(error instanceof ImportBusyError)) throw error;
            if (!told) print(`propdata: ${error.message} on this data dir; waiting for it…`);
            told = true;
            await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
          }
        }
      };
      const stores = await prepare();
      const demo = options.demo ? await seedDemoAccounts(stores.accounts.db) : null;
      const room = await postgresConnectionRoom(stores.accounts);
      // One connection is left for the command line (disabling a user must work under load).
      const wanted = options.workers * config.dbPoolSize;
      const poolsWarning =
        room !== undefined && wanted + 1 > room
          ? `propdata: warning: ${String(options.workers)} worker(s) × PROPDATA_DB_POOL_SIZE ${String(config.dbPoolSize)} = ${String(wanted)} connections, ` +
            `leaving none of the ${String(room)} PostgreSQL lets this role open for the command line; under load requests beyond them are answered 503 ` +
            '(lower PROPDATA_DB_POOL_SIZE or --workers, or raise max_connections)'
          : undefined;
      if (options.workers > 1) {
        // Migrations and the first market snapshot are made here, once, before any worker
        // starts: workers never race to create them.
        await stores.close();
        if (demo) printDemoAccounts(config, demo);
        if (poolsWarning) print(poolsWarning);
        print(`propdata: ${String(options.workers)} workers on port ${String(config.port)}`);
        await superviseWorkers(options.workers);
        return;
      }
      if (poolsWarning) print(poolsWarning);
      const app = await startServer(config, stores);
      if (demo)
        printDemoAccounts({ ...config, port: portOf(app.server.address()) ?? config.port }, demo);
    });
}

/** At most this many workers: more processes than this only add memory on any sane machine. */
const MAX_WORKERS = 64;

function parseWorkers(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_WORKERS) {
    throw new CliError(`--workers must be a whole number from 1 to ${String(MAX_WORKERS)}`);
  }
  return n;
}

function portOf(address: unknown): number | undefined {
  return typeof address === 'object' && address !== null && 'port' in address
    ? Number(address.port)
    : undefined;
}
