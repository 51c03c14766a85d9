import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import { targetProblem } from './target.js';

const dir = tempDir('propdata-target-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('targetProblem', () => {
  const source = path.join(dir, 'dvf.csv');

  it('refuses the source itself, however the path is spelled', () => {
    expect(targetProblem(source, path.join(dir, '.', 'sub', '..', 'dvf.csv'))).toBe(
      'the target must be another file than the source',
    );
    expect(targetProblem(dir, `${dir}/`, { folder: true })).toBe(
      'the target must be another file than the source',
    );
  });

  it('refuses a file in a folder that does not exist; a folder target is created', () => {
    const nowhere = path.join(dir, 'missing', 'offers.csv');
    expect(targetProblem(source, nowhere)).toBe(`the folder of ${nowhere} does not exist`);
    expect(targetProblem(dir, path.join(dir, 'missing', 'places'), { folder: true })).toBe(
      undefined,
    );
    expect(targetProblem(source, path.join(dir, 'offers.csv'))).toBe(undefined);
  });

  it('refuses a folder where a file is to be written', () => {
    const folder = path.join(dir, 'out.csv');
    fs.mkdirSync(folder, { recursive: true });
    expect(targetProblem(source, folder)).toBe(`${folder} is a folder; name a file to write`);
  });
});
