import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureMarketData } from '../../src/market/import/run-import.js';
import { marketPaths } from '../../src/market/snapshots.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A market dir holding only the shipped reference divisions, to be copied, never changed. */
    marketTemplate: string;
  }
}

/**
 * Makes, once per test run, the market a data dir gets on its first start (the shipped reference
 * divisions). Importing them takes seconds; test worlds copy this one instead
 * (`referenceDataDir` in test/helpers/market.ts). Runs after test/helpers/leftovers.ts, inside the
 * run's temp dir, and is removed before that checks for leftovers.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const root = path.join(project.config.env.TMPDIR ?? '', 'market-template');
  const dataDir = path.join(root, 'data');
  await ensureMarketData(dataDir);
  project.provide('marketTemplate', marketPaths(dataDir).dir);
  return () => {
    fs.rmSync(root, { recursive: true, force: true });
  };
}
