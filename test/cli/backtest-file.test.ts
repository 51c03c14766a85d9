import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnownOffer } from '../../src/valuation/baselines.js';
import { tempDir } from '../helpers/backends.js';
import {
  referenceMedian,
  referenceNearest,
  referencePostcode,
} from '../helpers/baseline-reference.js';
import { assertBuilt, runCli } from '../helpers/cli.js';
import { csv, writeFile } from '../helpers/market.js';

/** A deterministic generator (LCG). */
function lcg(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
}

const SPLIT = '2023-07-01';

/**
 * 480 sales in central Paris over 2022–2023, prices per m² falling 2% a quarter, with a few
 * rents and a few sales without coordinates (placed by their postcode).
 */
function offers(): KnownOffer[] {
  const rand = lcg(3);
  const out: KnownOffer[] = [];
  for (let i = 0; i < 480; i++) {
    const month = Math.floor(rand() * 24);
    const date = `${2022 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;
    const area = Math.round(18 + rand() * 90);
    const pc = 1 + Math.floor(rand() * 4);
    const level = 9000 + 1500 * pc;
    out.push({
      id: `s${i}`,
      countryCode: 'FR',
      propertyType: rand() < 0.9 ? 'apartment' : 'house',
      date,
      price: Math.round(area * level * 0.98 ** Math.floor(month / 3) * (0.8 + 0.4 * rand())),
      livingArea: area,
      postcode: `7500${pc}`,
      latitude: i % 40 === 0 ? null : 48.855 + pc * 0.004 + rand() * 0.006,
      longitude: i % 40 === 0 ? null : 2.33 + rand() * 0.02,
    });
  }
  return out;
}

describe('propdata avm backtest --file', () => {
  let dir: string;
  let tmp: string;
  let env: Record<string, string>;
  beforeAll(() => {
    assertBuilt();
    dir = tempDir('propdata-backtest-test-');
    tmp = path.join(dir, 'tmp');
    fs.mkdirSync(tmp);
    // The command's temporary data dir goes here, so the test sees it is removed.
    env = { PROPDATA_DATA_DIR: path.join(dir, 'data'), TMPDIR: tmp };
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('values the held-out sales and measures the model and both baselines on the same cases', async () => {
    const all = offers();
    const rows = all.map((o) => [
      o.id,
      'FR',
      'sale',
      o.propertyType,
      o.date,
      o.price,
      o.livingArea,
      o.postcode,
      o.latitude,
      o.longitude,
    ]);
    rows.push(['r1', 'FR', 'rent', 'apartment', '2023-08-01', null, 40, '75001', 48.86, 2.34]);
    const file = writeFile(
      dir,
      'offers.csv',
      csv(
        [
          'id',
          'countryCode',
          'dealType',
          'propertyType',
          'startDate',
          'salePrice',
          'livingArea',
          'postalCode',
          'latitude',
          'longitude',
        ],
        rows,
      ),
    );
    // The rent row has no rent: the importer refuses it, the sale backtest does not need it.
    const result = await runCli(
      ['avm', 'backtest', '--file', file, '--split-date', SPLIT, '--json'],
      env,
    );
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as {
      imported: number;
      rejected: number;
      rejections: { line: number; reason: string }[];
      training: number;
      heldOut: number;
      model: { sampled: number; valued: number };
      baselines: {
        training: number;
        valued: { postcode: number; nearest: number };
        sameCases: {
          count: number;
          model: { count: number; mdape: number };
          postcode: { count: number; mdape: number };
          nearest: { count: number; mdape: number };
          ratio: { postcode: number; nearest: number };
          interval: Record<'postcode' | 'nearest', { low: number; high: number; level: number }>;
        };
      };
    };
    const training = all.filter((o) => o.date < SPLIT);
    const heldOut = all.filter((o) => o.date >= SPLIT);
    expect(report.imported).toBe(480);
    // The rent row without a rent, line 482 after the header and the 480 sales.
    expect(report.rejected).toBe(1);
    expect(report.rejections.map((r) => r.line)).toEqual([482]);
    expect(report.rejections[0]?.reason).toMatch(/rent/);
    expect(report.training).toBe(training.length);
    expect(report.heldOut).toBe(heldOut.length);
    expect(report.model.sampled).toBe(heldOut.length);
    expect(report.baselines.training).toBe(training.length);

    // The baselines, recomputed with the plain reference on the held-out sales.
    const byPostcode = heldOut.map((o) => referencePostcode(training, o));
    const byNeighbours = heldOut.map((o) => referenceNearest(training, o));
    expect(report.baselines.valued).toEqual({
      postcode: byPostcode.filter((v) => v !== null).length,
      nearest: byNeighbours.filter((v) => v !== null).length,
    });
    // Every held-out sale with coordinates is valued by all three; those without by no kNN.
    const same = heldOut.flatMap((_, i) =>
      byPostcode[i] !== null && byNeighbours[i] !== null ? [i] : [],
    );
    const { sameCases } = report.baselines;
    expect(report.model.valued).toBe(heldOut.length);
    expect(sameCases.count).toBe(same.length);
    expect(same.length).toBe(heldOut.filter((o) => o.latitude !== null).length);
    const mdape = (values: (number | null)[]) =>
      referenceMedian(
        same.map((i) => {
          const price = heldOut[i]?.price ?? NaN;
          return Math.abs((values[i] ?? 0) - price) / price;
        }),
      );
    expect(sameCases.postcode).toMatchObject({ count: same.length });
    expect(sameCases.postcode.mdape).toBeCloseTo(mdape(byPostcode), 12);
    expect(sameCases.nearest.mdape).toBeCloseTo(mdape(byNeighbours), 12);
    expect(sameCases.ratio.nearest).toBeCloseTo(
      sameCases.model.mdape / sameCases.nearest.mdape,
      12,
    );
    expect(sameCases.ratio.postcode).toBeCloseTo(
      sameCases.model.mdape / sameCases.postcode.mdape,
      12,
    );
    // Each ratio's bootstrap interval (checked against a plain bootstrap in its own test).
    for (const baseline of ['postcode', 'nearest'] as const) {
      const { low, high, level } = sameCases.interval[baseline];
      expect(level).toBe(0.9);
      expect(low).toBeGreaterThan(0);
      expect(low).toBeLessThanOrEqual(high);
    }

    // The temporary data dir is gone; the configured one was never touched.
    expect(fs.readdirSync(tmp)).toEqual([]);
    expect(fs.existsSync(env.PROPDATA_DATA_DIR ?? '')).toBe(false);

    const text = await runCli(
      ['avm', 'backtest', '--file', file, '--split-date', SPLIT, '--sample', '20', '--seed', '2'],
      env,
    );
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/valued \d+ of 20 held-out offers/);
    expect(text.stdout).toMatch(
      /model \/ postcode median: \d+\.\d\d \(90% interval \d+\.\d\d–\d+\.\d\d\); model \/ kNN-10: \d+\.\d\d \(90% interval \d+\.\d\d–\d+\.\d\d\)/,
    );
    expect(fs.readdirSync(tmp)).toEqual([]);
  }, 120_000);

  it('refuses what it cannot run with exit 1 and one line', async () => {
    const file = writeFile(
      dir,
      'few.csv',
      'id,countryCode,dealType,propertyType,startDate,salePrice,livingArea,postalCode\nx,FR,sale,apartment,2023-01-01,300000,30,75001\n',
    );
    const cases: [string[], RegExp][] = [
      [['--file', file], /--file needs --split-date/],
      [['--file', file, '--split-date', '2023-02-30'], /--split-date: no such day 2023-02-30/],
      [['--file', file, '--split-date', 'soon'], /--split-date must be a date YYYY-MM-DD/],
      [['--split-date', '2023-01-01'], /--split-date and --json go with --file/],
      [['--file', path.join(dir, 'nope.csv'), '--split-date', SPLIT], /does not exist/],
      [
        ['--file', file, '--split-date', SPLIT],
        /has 1 sale offers before 2023-07-01 and 0 from then on: both are needed/,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(['avm', 'backtest', ...args], env);
      expect(result.status, args.join(' ')).toBe(1);
      expect(result.stderr).toMatch(message);
    }
    expect(fs.readdirSync(tmp)).toEqual([]);
  }, 60_000);
});
