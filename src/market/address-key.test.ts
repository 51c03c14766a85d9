import { describe, expect, it } from 'vitest';
import { houseKeySql, streetKeySql } from './address-key.js';
import { openDuck, queryPrepared } from './duck.js';

/** [street, house number, expected street key, expected house key] */
const CASES: [string | null, string | null, string | null, string | null][] = [
  ['Karl-Popper-Straße 5', null, 'karlpopperstrasse', '5'],
  ['karl-popper-str. 5/2/14', null, 'karlpopperstrasse', '5'],
  ['Karl-Popper-Strasse', '005', 'karlpopperstrasse', '5'],
  ['Village im Dritten, Billy-Wilder-Promenade 7', null, 'billywilderpromenade', '7'],
  ['Hütteldorferstraße 150-158', null, 'hütteldorferstrasse', '150'],
  ['Wehlistraße 291/Stiege 2', null, 'wehlistrasse', '291'],
  ['Graben', '12a', 'graben', '12'],
  ['Lerchenfelder Gürtel', null, 'lerchenfeldergürtel', null],
  ['12 bis rue de la Roquette', null, 'ruedelaroquette', '12'],
  ['rue de la Roquette', '12', 'ruedelaroquette', '12'],
  ['n/a', null, null, null],
  ['1100 Wien', null, null, null],
  [null, null, null, null],
];

describe('address keys', () => {
  it('give one street and building key for the ways an address is written', async () => {
    const instance = await openDuck(':memory:');
    const db = await instance.connect();
    try {
      for (const [street, house, streetKey, houseKey] of CASES) {
        const [row] = await queryPrepared(
          db,
          `select ${streetKeySql('$s', '$h')} as street, ${houseKeySql('$s', '$h')} as house`,
          { s: street, h: house },
        );
        expect({ street, house, keys: row }).toEqual({
          street,
          house,
          keys: { street: streetKey, house: houseKey },
        });
      }
    } finally {
      db.closeSync();
      instance.closeSync();
    }
  });
});
