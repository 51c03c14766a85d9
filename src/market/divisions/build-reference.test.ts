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

/**
 * Builds the divisions from GeoNames files of `rows` per country and runs `queries` on the
 * output (`$file`).
 */
async function built(
  files: Record<string, readonly string[]>,
  ...queries: string[]
): Promise<Record<string, unknown>[][]> {
  const source = tempDir();
  for (const [cc, rows] of Object.entries(files)) {
    fs.writeFileSync(path.join(source, `zipcodes.${cc}.csv`), [HEADER, ...rows].join('\n'));
  }
  const out = path.join(tempDir(), 'divisions.csv.gz');
  await buildReferenceDivisions(source, out);
  const instance = await openDuck(':memory:');
  const db = await instance.connect();
  try {
    const results: Record<string, unknown>[][] = [];
    for (const sql of queries) results.push(await queryRows(db, sql, { file: out }));
    return results;
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

describe('the shipped divisions', () => {
  it('leave out the French codes that are not areas, and keep every other country’s spaced codes', async () => {
    const [rows = [], [department] = []] = await built(
      { fr: FRANCE, sk: SLOVAKIA },
      `select countryCode as cc, id from read_csv($file, all_varchar = true)
       where level = '100' order by cc, id`,
      `select latitude::double as lat, longitude::double as lon from read_csv($file, all_varchar = true)
       where level = '6' and id = '13'`,
    );
    expect(rows.map((r) => `${String(r.cc)}:${String(r.id)}`)).toEqual([
      'FR:13300',
      'FR:75007',
      'SK:81101',
    ]);
    // The département's centroid is its towns' alone: the air base's code does not pull it.
    expect(department).toEqual({ lat: 43.6403, lon: 5.097 });
  });
});

/** Austrian rows as the GeoNames file gives them: Wien 1140 shares its code with two villages. */
const AUSTRIA = [
  'AT,1140,Purkersdorf,Niederösterreich,03,Politischer Bezirk Sankt Pölten,319,Purkersdorf,31952,48.2077,16.1754',
  'AT,1140,Mauerbach,Niederösterreich,03,Politischer Bezirk Sankt Pölten,319,Mauerbach,31950,48.2077,16.1754',
  'AT,1140,"Wien, Penzing",Wien,09,Politischer Bezirk Wien (Stadt),900,Gemeindebezirk Penzing,914,48.221,16.2415',
  'AT,1150,"Wien, Rudolfsheim-Fünfhaus",Wien,09,Politischer Bezirk Wien (Stadt),900,Gemeindebezirk Rudolfsheim-Fünfhaus,915,48.1965,16.3238',
  'AT,3001,Mauerbach,Niederösterreich,03,Politischer Bezirk Sankt Pölten,319,Mauerbach,31950,48.2654,16.0852',
  'AT,3002,Purkersdorf,Niederösterreich,03,Politischer Bezirk Sankt Pölten,319,Purkersdorf,31952,48.2089,16.1794',
  'AT,2000,Unterzögersdorf,Niederösterreich,03,Politischer Bezirk Korneuburg,312,Stockerau,31230,48.3667,16.1667',
  'AT,2000,Zissersdorf,Niederösterreich,03,Politischer Bezirk Korneuburg,312,Hausleiten,31208,48.4,16.1333',
  'AT,2000,Stockerau,Niederösterreich,03,Politischer Bezirk Korneuburg,312,Stockerau,31230,48.3833,16.2167',
];

describe('a postcode’s divisions', () => {
  it('nest, a tie goes to a division no other code holds, and the name is of its own division', async () => {
    const [rows] = await built(
      { at: AUSTRIA },
      `select id, name, level6Id as l6, level8Id as l8 from read_csv($file, all_varchar = true)
       where level = '100' order by id`,
    );
    expect(rows).toEqual([
      // Penzing, Mauerbach and Purkersdorf one place each: Penzing, the one no code holds.
      { id: '1140', name: 'Wien, Penzing', l6: '900', l8: '914' },
      { id: '1150', name: 'Wien, Rudolfsheim-Fünfhaus', l6: '900', l8: '915' },
      // Named after the place of its municipality's name, not the first listed.
      { id: '2000', name: 'Stockerau', l6: '312', l8: '31230' },
      { id: '3001', name: 'Mauerbach', l6: '319', l8: '31950' },
      { id: '3002', name: 'Purkersdorf', l6: '319', l8: '31952' },
    ]);
  });
});
