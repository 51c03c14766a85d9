import { afterAll } from 'vitest';
import { stopChildren } from './children.js';
import { removeTempDirs } from './temp-dirs.js';

/*
 * Runs before every test file (vitest.config.ts `setupFiles`). Its hook is registered first, so it
 * runs after the file's own: once the worlds are closed, the processes the file started are
 * killed and its temp dirs removed, whether its tests passed or not.
 */
afterAll(async () => {
  await stopChildren();
  removeTempDirs();
});
