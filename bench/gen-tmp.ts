import { generateDemoData } from '../src/market/generate/generate.js';
import { terminalProgress } from '../src/market/progress.js';
const n = Number(process.argv[2]);
await generateDemoData(`/tmp/propdata-bench/offers-${n}`, {
  offers: n,
  projects: n / 200,
  seed: 1,
  progress: terminalProgress(),
});
