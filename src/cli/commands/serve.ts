import type { Command } from 'commander';
import { seedDemoAccounts, type DemoAccount } from '../../accounts/demo-accounts.js';
import { loadConfig, type Config } from '../../config.js';
import { startServer } from '../../server.js';
import { openStores } from '../../stores.js';
import { print } from '../context.js';

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
    .option('--demo', 'on a brand-new data dir, create demo accounts and print their tokens', false)
    .action(async (options: { demo: boolean }) => {
      const config = loadConfig();
      const stores = await openStores(config);
      const demo = options.demo ? await seedDemoAccounts(stores.accounts.db) : null;
      const app = await startServer(config, stores);
      if (demo)
        printDemoAccounts({ ...config, port: portOf(app.server.address()) ?? config.port }, demo);
    });
}

function portOf(address: unknown): number | undefined {
  return typeof address === 'object' && address !== null && 'port' in address
    ? Number(address.port)
    : undefined;
}
