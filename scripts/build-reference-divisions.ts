// Rebuilds reference/divisions.csv.gz from the GeoNames postcode files (CC BY 4.0).
// Usage: npx tsx scripts/build-reference-divisions.ts [../shared/data/geonames-postal]
import path from 'node:path';
import { buildReferenceDivisions } from '../src/market/divisions/build-reference.js';
import { REFERENCE_DIVISIONS_FILE } from '../src/market/divisions/reference.js';

const source = path.resolve(process.argv[2] ?? '../shared/data/geonames-postal');
const count = await buildReferenceDivisions(source, REFERENCE_DIVISIONS_FILE);
process.stdout.write(`wrote ${count} divisions to ${REFERENCE_DIVISIONS_FILE}\n`);
