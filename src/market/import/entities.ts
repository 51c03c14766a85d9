/** What `propdata import` and `importFile` accept. Kept apart from the import itself (DuckDB), so
 * that the command line can describe its commands without loading it. */
export const IMPORT_ENTITIES = [
  'offers',
  'projects',
  'divisions',
  'pois',
  'transit',
  'indicators',
] as const;
export type ImportEntity = (typeof IMPORT_ENTITIES)[number];
