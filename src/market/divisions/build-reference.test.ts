import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import { buildReferenceDivisions } from './build-reference.js';

const HEADER =
  'country_code,zipcode,place,state,state_code,province,province_code,community,community_code,latitude,longitude';

it('keeps only postcodes of digits: codes with letters (CEDEX, SP, AIR…) are no area', async () => {
  const dir = tempDir();
  fs.writeFileSync(
    path.join(dir, 'zipcodes.fr.csv'),
    [
      HEADER,
      'FR,75007,Paris 07,Île-de-France,11,Paris,75,Paris,751,48.8565,2.321',
      'FR,75303 SP 07,Paris 07,Île-de-France,11,Paris,75,Paris,751,48.8565,2.321',
      'FR,75021 CEDEX 01,Paris 01,Île-de-France,11,Paris,75,Paris,751,48.8592,2.3417',
      'FR,13661AIR,Salon,Provence-Alpes-Côte d’Azur,93,Bouches-du-Rhône,13,Aix,132,43.6,5.1',
      'FR,01000,Bourg-en-Bresse,Auvergne-Rhône-Alpes,84,Ain,01,Bourg,011,46.2,5.22',
    ].join('\n') + '\n',
  );
  const out = path.join(dir, 'divisions.csv.gz');
  await buildReferenceDivisions(dir, out);
  const postcodes = zlib
    .gunzipSync(fs.readFileSync(out))
    .toString()
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))
    .filter((cells) => cells[1] === '100')
    .map((cells) => cells[2]);
  expect(postcodes).toEqual(['01000', '75007']);
});
