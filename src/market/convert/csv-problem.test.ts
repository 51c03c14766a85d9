import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import { csvProblem } from './csv-problem.js';

const dir = tempDir('propdata-csv-problem-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const file = (name: string, content: string | Buffer) => {
  const at = path.join(dir, name);
  fs.writeFileSync(at, content);
  return at;
};
const comma = { gzip: false, delimiter: ',' };

describe('csvProblem', () => {
  it('finds the first line whose fields differ from the header, counting quoted ones as one', async () => {
    const rows = ['a,b,c', '1,"x, y",3', '"two\nlines",5,6', '7,8', '9,10,11'];
    expect(await csvProblem(file('short.csv', rows.join('\n')), comma)).toBe(
      'line 5 has 2 fields, the header 3',
    );
    const crlf = ['a;b', '1;2', '3;4;5'].join('\r\n');
    expect(await csvProblem(file('long.csv', crlf), { gzip: false, delimiter: ';' })).toBe(
      'line 3 has 3 fields, the header 2',
    );
    const gz = file('short.csv.gz', zlib.gzipSync(rows.join('\n')));
    expect(await csvProblem(gz, { gzip: true, delimiter: ',' })).toBe(
      'line 5 has 2 fields, the header 3',
    );
  });

  it('names a quote never closed, text that is not UTF-8, and nothing in a sound file', async () => {
    expect(await csvProblem(file('quote.csv', 'a,b\n1,2\n"3,4\n5,6\n'), comma)).toBe(
      'a quoted field opened on line 3 is never closed',
    );
    const latin1 = Buffer.concat([Buffer.from('a,b\n1,'), Buffer.from([0xe9]), Buffer.from('\n')]);
    expect(await csvProblem(file('latin1.csv', latin1), comma)).toMatch(/^it is not UTF-8 text/);
    // Blank lines at the end, and a last line without its line end, are fine.
    expect(await csvProblem(file('sound.csv', 'a,b\n1,2\n3,4\n\n\n'), comma)).toBeUndefined();
    expect(await csvProblem(file('no-end.csv', 'a,b\n1,2'), comma)).toBeUndefined();
  });
});
