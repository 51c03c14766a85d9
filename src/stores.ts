import { openAccountDatabase, type AccountDatabase } from './accounts/database.js';
import type { Config } from './config.js';
import { MarketStore } from './market/market-store.js';
import { placeTiles } from './valuation/place-tiles.js';

/** How often a running server looks for a newer market snapshot published by an import. */
export const MARKET_POLL_MS = 1000;

/** Everything the service persists, opened once per process and closed on shutdown. */
export interface Stores {
  accounts: AccountDatabase;
  market: MarketStore;
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
  const market = await MarketStore.open(config.dataDir, {
    pollMs: MARKET_POLL_MS,
    ...(config.duckdbThreads > 0 ? { threads: config.duckdbThreads } : {}),
    ...(config.duckdbMemoryLimit ? { memoryLimit: config.duckdbMemoryLimit } : {}),
    sliceBudgetBytes: config.statsCacheMb * 1024 * 1024,
  });
  placeTiles.reset(config.valuationCacheMb * 1024 * 1024);
  let accounts: AccountDatabase;
  try {
    accounts = await openAccountDatabase(config.databaseUrl, config.dbPoolSize);
  } catch (error) {
    market.close();
    throw error;
  }
  let closed = false;
  return {
    accounts,
    market,
    async check() {
      return {
        accounts: await answers(() => accounts.ping()),
        market: await answers(() => market.ping()),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      market.close();
      await accounts.close();
    },
  };
}
