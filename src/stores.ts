import { openAccountDatabase, type AccountDatabase } from './accounts/database.js';
import type { Config } from './config.js';

/** Everything the service persists, opened once per process and closed on shutdown. */
export interface Stores {
  accounts: AccountDatabase;
  /** Each store's name and whether it answered; used by the readiness probe. */
  check(): Promise<Record<string, boolean>>;
  close(): Promise<void>;
}

async function answers(ping: () => Promise<void>): Promise<boolean> {
  try {
    await ping();
    return true;
  } catch {
    return false;
  }
}

export async function openStores(config: Config): Promise<Stores> {
  const accounts = await openAccountDatabase(config.databaseUrl);
  return {
    accounts,
    async check() {
      return { accounts: await answers(() => accounts.ping()) };
    },
    close: () => accounts.close(),
  };
}
