import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/backends.js';
import { assertBuilt, runCli } from '../helpers/cli.js';
import { csv, snapshotRows, writeFile, OFFER_KEY_COLUMNS } from '../helpers/market.js';

const HEADER = [...OFFER_KEY_COLUMNS, 'salePrice', 'postalCode'];

describe('propdata import / generate / convert', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    assertBuilt();
    dir = tempDir();
    env = { PROPDATA_DATA_DIR: path.join(dir, 'data') };
  });

  it('imports, reports rejected rows with line and reason, and --strict exits 1 changing nothing', async () => {
    const file = writeFile(
      dir,
      'o.csv',
      csv(HEADER, [
        ['x1', 'NL', 'sale', 'apartment', '2025-01-01', 300000, '1012'],
        ['x2', 'NL', 'sale', 'flat', '2025-01-01', 300000, '1012'],
      ]),
    );
    const strict = await runCli(['import', 'offers', file, '--strict'], env);
    expect(strict.status).toBe(1);
    // The summary says what happened: nothing imported (it had said "imported 1; 0 offers in
    // the market data now").
    expect(strict.stdout).toMatch(
      /read 2, valid 1, rejected 1; nothing imported, the market data is unchanged/,
    );
    expect(strict.stdout).not.toMatch(/imported 1|in the market data now/);
    expect(strict.stdout).toMatch(/line 3: propertyType "flat" is not one of apartment, house/);
    expect(strict.stderr).toMatch(/1 invalid row: nothing was imported \(--strict\)/);
    expect(
      await snapshotRows(env.PROPDATA_DATA_DIR ?? '', 'select count(*)::integer as n from offers'),
    ).toEqual([{ n: 0 }]);

    const lenient = await runCli(['import', 'offers', file], env);
    expect(lenient.status, lenient.stderr).toBe(0);
    expect(lenient.stdout).toMatch(/imported 1, rejected 1; 1 offers in the market data now/);
  });

  it('refuses a bad entity, a missing file and a busy option with exit 1', async () => {
    expect((await runCli(['import', 'flats', 'x.csv'], env)).stderr).toMatch(
      /entity must be one of offers, projects, divisions/,
    );
    const missing = await runCli(['import', 'offers', path.join(dir, 'nope.csv')], env);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/does not exist/);
    const badCount = await runCli(['generate', '--offers', 'many'], env);
    expect(badCount.status).toBe(1);
    expect(badCount.stderr).toMatch(/--offers must be an integer/);
  });

  it('generates demo data', async () => {
    const result = await runCli(
      ['generate', '--offers', '2000', '--projects', '10', '--seed', '3'],
      env,
    );
    expect(result.status, result.stderr).toBe(0);
    const printed =
      /generated 2000 offers, 10 building projects, (\d+) points of interest, (\d+) transit stops and (\d+) indicator values of (\d+) divisions \(seed 3\)/.exec(
        result.stdout,
      );
    expect(printed, result.stdout).not.toBeNull();
    const [counts] = await snapshotRows(
      env.PROPDATA_DATA_DIR ?? '',
      `select (select count(*) from offers)::integer as offers,
         (select count(*) from pois)::integer as pois,
         (select count(*) from transit_stops)::integer as stops,
         (select count(*) from indicators)::integer as indicators,
         (select count(distinct (country_code, level, division_id)) from indicators)::integer as divisions`,
    );
    expect(counts).toEqual({
      offers: 2000,
      pois: Number(printed?.[1]),
      stops: Number(printed?.[2]),
      indicators: Number(printed?.[3]),
      divisions: Number(printed?.[4]),
    });
  });
});
