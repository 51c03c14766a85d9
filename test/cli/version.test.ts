import fs from 'node:fs';
import { expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli.js';

it('prints the package version with --version and -V', async () => {
  assertBuilt();
  const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const result = await runCli([flag], {});
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  }
});
