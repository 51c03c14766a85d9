import { fileURLToPath } from 'node:url';

/**
 * The divisions shipped with the service, derived from GeoNames (CC BY 4.0, see NOTICE) by
 * `scripts/build-reference-divisions.ts`. Every new market snapshot starts with them.
 */
export const REFERENCE_DIVISIONS_FILE = fileURLToPath(
  new URL('../../../reference/divisions.csv.gz', import.meta.url),
);
