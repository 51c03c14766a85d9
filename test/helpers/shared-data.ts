import fs from 'node:fs';
import path from 'node:path';

/**
 * A licensed data set of the shared folder, `../shared/data/<relative>`, and whether it is here
 * (for a folder: whether its file `probe` is). Tests on it are skipped where it is missing, but
 * not under CI=true: there a missing data set fails the run.
 */
export function sharedData(relative: string, probe?: string): { path: string; available: boolean } {
  const file = path.resolve('../shared/data', relative);
  const available = fs.existsSync(probe === undefined ? file : path.join(file, probe));
  if (!available && process.env.CI === 'true') {
    throw new Error(`${file} is missing, which CI=true does not allow`);
  }
  return { path: file, available };
}
