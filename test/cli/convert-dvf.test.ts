import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/backends.js';
import { assertBuilt, BIN, runCli } from '../helpers/cli.js';
import { spawnTracked } from '../helpers/children.js';
import { writeFile } from '../helpers/market.js';

describe('propdata convert dvf', () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = tempDir('propdata-convert-dvf-');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints what it wrote and why sales were skipped; refuses a file that is not DVF, and its source as target', async () => {
    const source = writeFile(
      dir,
      'dvf.csv',
      [
        'id_mutation;date_mutation;nature_mutation;valeur_fonciere;code_postal;type_local;surface_reelle_bati;longitude;latitude',
        '1;2024-02-01;Vente;250000;75011;Appartement;31;2.38;48.86',
        '1;2024-02-01;Vente;250000;75011;Dépendance;;2.38;48.86',
        '2;2024-02-02;Vente;500000;75011;Appartement;40;2.38;48.86',
        '2;2024-02-02;Vente;500000;75011;Appartement;41;2.38;48.86',
        '3;2024-02-03;Echange;100000;75011;Appartement;20;2.38;48.86',
      ].join('\n') + '\n',
    );
    const target = path.join(dir, 'offers.csv');
    const env = { PROPDATA_DATA_DIR: path.join(dir, 'data') };
    const result = await runCli(['convert', 'dvf', source, target], env);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        `read 5 rows, 3 sales; wrote 1 offers to ${target}, skipped 2 sales:`,
        '  1 not a sale or off-plan sale (exchange, auction, expropriation, building land…)',
        '  1 several apartments or houses in one sale',
        '',
      ].join('\n'),
    );
    expect(fs.readFileSync(target, 'utf8').split('\n')[1]).toMatch(
      /^dvf-1,FR,sale,apartment,2024-02-01,/,
    );

    // The offers just written are not a DVF file; nor may a conversion write over its source.
    const wrong = await runCli(['convert', 'dvf', target, path.join(dir, 'again.csv')], env);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/is not a geolocated DVF file: missing columns id_mutation/);
    const before = fs.readFileSync(source, 'utf8');
    const over = await runCli(['convert', 'dvf', source, source], env);
    expect([over.status, over.stderr]).toEqual([
      1,
      'propdata: the target must be another file than the source\n',
    ]);
    expect(fs.readFileSync(source, 'utf8')).toBe(before);
  });

  it('writes its whole file when the reader of its output stops early (| head)', async () => {
    const lines = [
      'id_mutation,date_mutation,valeur_fonciere,code_postal,type_local,surface_reelle_bati',
    ];
    for (let i = 0; i < 50; i++) {
      lines.push(`${String(i)},2024-02-01,250000,75011,Appartement,31`);
    }
    const source = writeFile(dir, 'many.csv', `${lines.join('\n')}\n`);
    const target = path.join(dir, 'many-offers.csv');
    const child = spawnTracked(process.execPath, [BIN, 'convert', 'dvf', source, target], {
      PROPDATA_DATA_DIR: path.join(dir, 'data'),
    });
    // The pipe is closed before the command writes a line.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status, stderr).toBe(0);
    expect(stderr).not.toMatch(/EPIPE/);
    expect(fs.readFileSync(target, 'utf8').trimEnd().split('\n')).toHaveLength(51);
  });
});
