import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import { snapshotRows } from '../../../test/helpers/market.js';
import { sharedData } from '../../../test/helpers/shared-data.js';
import { openDuck, queryRows } from '../duck.js';
import { importFile } from '../import/run-import.js';
import { viennaBacktest } from '../../valuation/vienna-backtest.js';
import { convertViennaRent, ViennaRentFormatError, VIENNA_RENT_COLUMNS } from './vienna-rent.js';

const { path: SOURCE, available } = sharedData('vienna-rent/willhaben-vienna-rent.csv.gz');

/** The first `n` listings of the real file, as a smaller sample to convert and import. */
async function sample(n: number, target: string): Promise<void> {
  const instance = await openDuck(':memory:');
  const db = await instance.connect();
  try {
    await db.run(
      `copy (select * from read_csv('${SOURCE}', header = true, all_varchar = true) limit ${n}) to '${target}' (header)`,
    );
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

describe.skipIf(!available)('real Vienna rental offers', () => {
  it('convert and import, deriving divisions from the postcode and days on market from sightings', async () => {
    const dir = tempDir();
    const raw = path.join(dir, 'sample.csv');
    await sample(3000, raw);
    const canonical = path.join(dir, 'vienna.csv.gz');
    const converted = await convertViennaRent(raw, canonical);
    expect(converted.rows + converted.skipped).toBe(3000);

    const dataDir = path.join(dir, 'data');
    const report = await importFile(dataDir, 'offers', canonical, { today: '2026-11-21' });
    expect(report.imported).toBeGreaterThan(2800);
    expect(report.imported + report.rejected).toBe(converted.rows);

    // Independent check against the source: one listing of the 1st district.
    const [source] = await (async () => {
      const instance = await openDuck(':memory:');
      const db = await instance.connect();
      try {
        return await queryRows(
          db,
          `
          select "Ad ID" as id,
                 round(epoch(last_seen::timestamptz - first_seen::timestamptz) / 86400)::integer as days,
                 strftime(first_seen::timestamptz, '%Y-%m-%d') as start_date, "Rent (€)"::double as rent
          from read_csv('${raw}', header = true, all_varchar = true)
          where Postcode = '1010' and "Property Type" = 'Wohnung' and "Rent (€)" <> 'N/A' and "Size (m²)" <> 'N/A'
          order by "Ad ID" limit 1`,
        );
      } finally {
        db.closeSync();
        instance.closeSync();
      }
    })();
    expect(source).toBeDefined();
    const [offer] = await snapshotRows(
      dataDir,
      `
      select country_code, deal_type, property_type, start_date::varchar as start_date, rent_gross, days_on_market,
             division_level6, division_level8, division_level100
      from offers where id = 'willhaben-${String(source?.id)}'`,
    );
    expect(offer).toEqual({
      country_code: 'AT',
      deal_type: 'rent',
      property_type: 'apartment',
      start_date: source?.start_date,
      rent_gross: source?.rent,
      days_on_market: source?.days,
      division_level6: '900',
      division_level8: '901',
      division_level100: '1010',
    });
  });
});

describe('what a listing states', () => {
  it('reads rooms, floor, furnishing, subsidy, old building, new, balcony and terrace from type, floor and title', async () => {
    const dir = tempDir();
    const raw = path.join(dir, 'rows.csv');
    const header =
      'Ad ID,Description,Location,Postcode,Price,Rooms,Size (m²),State,District,Location Quality,Floor,Property Type,Published Date,Rent (€),Address,first_seen,last_seen';
    const row = (id: string, description: string, floor: string, type = 'Wohnung', rooms = '2') =>
      `${id},"${description}",Wien,1050,900,${rooms},50,Wien,Wien,1.0,${floor},${type},2026-01-01T00:00:00Z,900,N/A,2026-01-02T00:00:00+00:00,2026-01-09T00:00:00+00:00`;
    fs.writeFileSync(
      raw,
      [
        header,
        row('1', 'Möblierte Altbauwohnung mit Balkon, Erstbezug', '3. OG'),
        row('2', 'Unmöbliert: Neubau-Erstbezug mit Dachterrasse', 'EG'),
        row('3', 'Helle Wohnung', 'N/A', 'Genossenschaftswohnung', '0'),
        row('4', 'Gemeindewohnung Tausch', '12', 'Wohnung', 'N/A'),
      ].join('\n'),
    );
    const target = path.join(dir, 'out.csv');
    await convertViennaRent(raw, target);
    const instance = await openDuck(':memory:');
    const db = await instance.connect();
    try {
      const rows = await queryRows(
        db,
        `select id, "numberOfRooms" as rooms, "floorNumber" as floor, "isFurnished" as furnished, "isSubsidized" as subsidized,
                "isOldBuilding" as old, "isNew" as new, "hasBalcony" as balcony, "hasTerrace" as terrace
         from read_csv('${target}', header = true, all_varchar = true) order by id`,
      );
      // One row per listing, in the columns selected above.
      const columns = [
        'id',
        'rooms',
        'floor',
        'furnished',
        'subsidized',
        'old',
        'new',
        'balcony',
        'terrace',
      ];
      const expected = [
        // Rooms: 0 and N/A are both a count left out.
        ['willhaben-1', '2', '3', 'true', null, 'true', null, 'true', null],
        ['willhaben-2', '2', '0', 'false', null, null, 'true', null, 'true'],
        ['willhaben-3', null, null, 'false', 'true', null, null, null, null],
        ['willhaben-4', null, '12', 'false', 'true', null, null, null, null],
      ];
      expect(rows).toEqual(
        expected.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]]))),
      );
    } finally {
      db.closeSync();
      instance.closeSync();
    }
  });
});

describe('a source that is not the listings file', () => {
  it('is refused by name before anything is read or written', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'out.csv');
    const missing = path.join(dir, 'nowhere.csv.gz');
    await expect(convertViennaRent(missing, target)).rejects.toThrow(
      new ViennaRentFormatError(`${missing} does not exist`),
    );
    await expect(convertViennaRent(dir, target)).rejects.toThrow(
      new ViennaRentFormatError(`${dir} is a folder; name the listings file`),
    );
    // The listings file without its address column: named, not a database error.
    const partial = path.join(dir, 'partial.csv');
    const columns = VIENNA_RENT_COLUMNS.filter((c) => c !== 'Address');
    fs.writeFileSync(
      partial,
      `${columns.map((c) => `"${c}"`).join(',')}\n${columns.map(() => '1').join(',')}\n`,
    );
    await expect(convertViennaRent(partial, target)).rejects.toThrow(
      new ViennaRentFormatError(
        `${partial} is not the willhaben listings file: it lacks the column "Address"`,
      ),
    );
    await expect(viennaBacktest(partial)).rejects.toBeInstanceOf(ViennaRentFormatError);
    expect(fs.existsSync(target)).toBe(false);
  });
});
