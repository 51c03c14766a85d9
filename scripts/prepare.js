// `npm install` builds dist/ (the `propdata` command runs it), with the TypeScript compiler from
// the dev dependencies. When they are not installed (`npm install --omit=dev`,
// `npm install --package-lock-only`), there is nothing to build with: say so and succeed.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.log('propdata: TypeScript is not installed, dist/ is not built (npm run build does it)');
  process.exit(0);
}
// Build mode: compiles only when a source or the configuration changed since the last build.
const result = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
