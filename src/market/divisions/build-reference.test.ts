import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp-dirs.js';
import { openDuck, queryRows } from '../duck.js';
import { buildReferenceDivisions } from './build-reference.js';

const HEADER =
  'country_code,zipcode,place,state,state_code,province,province_code,community,community_code,latitude,longitude';

/** Rows as the GeoNames files give them: Paris 07 and the codes at its very point. */
const FRANCE = [
  'FR,75007,Paris 07,Île-de-France,11,Paris,75,Paris,751,48.8565,2.321',
  'FR,75303 SP 07,Paris 07,Île-de-France,11,Paris,75,Paris,751,48.8565,2.321',
  'FR,75021 CEDEX 01,Paris 01,Île-de-France,11,Paris,75,Paris,751,48.8592,2.3417',
  'FR,13300,Salon-de-Provence,Provence-Alpes-Côte d’Azur,93,Bouches-du-Rhône,13,Aix-en-Provence,131,43.6403,5.0970',
  'FR,13661 AIR,Salon-de-Provence,Provence-Alpes-Côte d’Azur,93,Bouches-du-Rhône,13,Aix-en-Provence,131,43.6423,5.0948',
  'FR,78078 CITYSSIMO,Saint-Quentin-en-Yvelines,Île-de-France,11,Yvelines,78,,,48.7732,2.0191',
];
const SLOVAKIA = ['SK,811 01,Bratislava,Bratislavský kraj,BL,Bratislava I,101,,,48.1439,17.1097'];

describe('the shipped divisions', () => {
  it('leave out the French codes that are not areas, and keep every other country’s spaced codes', async () => {
    const source = tempDir();
    fs.writeFileSync(path.join(source, 'zipcodes.fr.csv'), [HEADER, ...FRANCE].join('\n'));
    fs.writeFileSync(path.join(source, 'zipcodes.sk.csv'), [HEADER, ...SLOVAKIA].join('\n'));
    const out = path.join(tempDir(), 'divisions.csv.gz');
    await buildReferenceDivisions(source, out);
    const instance = await openDuck(':memory:');
    const db = await instance.connect();
    try {
      const rows = await queryRows(
        db,
        `select countryCode as cc, id from read_csv($file, all_varchar = true)
         where level = '100' order by cc, id`,
        { file: out },
      );
      expect(rows.map((r) => `${String(r.cc)}:${String(r.id)}`)).toEqual([
        'FR:13300',
        'FR:75007',
        'SK:81101',
      ]);
      // The département's centroid is its towns' alone: the air base's code does not pull it.
      const [department] = await queryRows(
        db,
        `select latitude::double as lat, longitude::double as lon from read_csv($file, all_varchar = true)
         where level = '6' and id = '13'`,
        { file: out },
      );
      expect(department).toEqual({ lat: 43.6403, lon: 5.097 });
    } finally {
      db.closeSync();
      instance.closeSync();
    }
  });
});
