import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import { snapshotRows } from '../../../test/helpers/market.js';
import { openDuck, queryRows } from '../duck.js';
import { importFile } from '../import/run-import.js';
import { convertViennaRent } from './vienna-rent.js';

const SOURCE = path.resolve('../shared/data/vienna-rent/willhaben-vienna-rent.csv.gz');
const available = fs.existsSync(SOURCE);
if (!available && process.env.CI === 'true')
  throw new Error(`${SOURCE} is missing, which CI=true does not allow`);

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
