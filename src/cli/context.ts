import type { AccountDb } from '../accounts/database.js';
import { openAccountDatabase } from '../accounts/database.js';
import { loadConfig, type Config } from '../config.js';

/** A mistake of the person at the terminal: printed without a stack, exit code 1. */
export class CliError extends Error {}

/** A command called without what it needs (a missing choice of options): exit code 2, as
 * commander's own usage errors. */
export class UsageError extends CliError {}

/** Runs `work` against the configured account database and always closes it. */
export async function withAccounts<T>(
  work: (db: AccountDb, config: Config) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const accounts = await openAccountDatabase(config.databaseUrl, config.dbPoolSize);
  try {
    return await work(accounts.db, config);
  } finally {
    await accounts.close();
  }
}

export function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}
