import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/backends.js';
import { snapshotRows } from '../../../test/helpers/market.js';
import { sharedData } from '../../../test/helpers/shared-data.js';
import { importFile } from '../import/run-import.js';
import { convertDvf, DvfFormatError } from './dvf.js';

const dirs: string[] = [];
function scratch(): string {
  const dir = tempDir('propdata-dvf-');
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The columns of Etalab's geolocated DVF files, in their order. */
const GEO_DVF_COLUMNS = [
  'id_mutation',
  'date_mutation',
  'numero_disposition',
  'nature_mutation',
  'valeur_fonciere',
  'adresse_numero',
  'adresse_suffixe',
  'adresse_nom_voie',
  'adresse_code_voie',
  'code_postal',
  'code_commune',
  'nom_commune',
  'code_departement',
  'ancien_code_commune',
  'ancien_nom_commune',
  'id_parcelle',
  'ancien_id_parcelle',
  'numero_volume',
  'lot1_numero',
  'lot1_surface_carrez',
  'lot2_numero',
  'lot2_surface_carrez',
  'lot3_numero',
  'lot3_surface_carrez',
  'lot4_numero',
  'lot4_surface_carrez',
  'lot5_numero',
  'lot5_surface_carrez',
  'nombre_lots',
  'code_type_local',
  'type_local',
  'surface_reelle_bati',
  'nombre_pieces_principales',
  'code_nature_culture',
  'nature_culture',
  'code_nature_culture_speciale',
  'nature_culture_speciale',
  'surface_terrain',
  'longitude',
  'latitude',
] as const;
type Lot = Partial<Record<(typeof GEO_DVF_COLUMNS)[number], string>>;

const SALE = 'Vente';
const VEFA = "Vente en l'état futur d'achèvement";
const flat = (m: Lot): Lot => ({
  code_type_local: '2',
  type_local: 'Appartement',
  nombre_lots: '1',
  ...m,
});
const cellar = (m: Lot): Lot => ({ code_type_local: '3', type_local: 'Dépendance', ...m });
const paris2 = {
  code_postal: '75002',
  code_commune: '75102',
  nom_commune: 'Paris 2e Arrondissement',
  code_departement: '75',
};
/** What every row of one sale in Paris 2e repeats: the sale's id, date, nature and price. */
const parisSale = (id: string, date: string, price: string, nature = SALE): Lot => ({
  id_mutation: id,
  date_mutation: date,
  nature_mutation: nature,
  valeur_fonciere: price,
  ...paris2,
});

/** What every row of sale 2 (a house near Bourg-en-Bresse) repeats. */
const houseSale: Lot = {
  id_mutation: '2023-2',
  date_mutation: '2023-01-15',
  numero_disposition: '000001',
  nature_mutation: SALE,
  valeur_fonciere: '350000.5',
  code_postal: '1000',
  code_commune: '01053',
};

/**
 * A hand-made file as Etalab publishes them: one row per lot, several rows per sale, a house
 * repeated once per kind of land of its parcel, sales that must be skipped for each reason.
 */
const LOTS: Lot[] = [
  // 1: a flat with its cellar → one offer; the address has a comma in it.
  flat({
    id_mutation: '2023-1',
    date_mutation: '2023-03-02',
    numero_disposition: '000001',
    nature_mutation: SALE,
    valeur_fonciere: '412000',
    adresse_numero: '12',
    adresse_suffixe: 'B',
    adresse_nom_voie: 'RUE DE LA PAIX, COUR A',
    ...paris2,
    id_parcelle: '75102000AB0012',
    // The building's parcel: an apartment has no land of its own.
    code_nature_culture: 'S',
    surface_terrain: '650',
    lot1_numero: '14',
    lot1_surface_carrez: '41.20',
    surface_reelle_bati: '42',
    nombre_pieces_principales: '2',
    longitude: '2.331',
    latitude: '48.869',
  }),
  cellar({
    id_mutation: '2023-1',
    date_mutation: '2023-03-02',
    numero_disposition: '000001',
    nature_mutation: SALE,
    valeur_fonciere: '412000',
    ...paris2,
    id_parcelle: '75102000AB0012',
    lot1_numero: '102',
    longitude: '2.331',
    latitude: '48.869',
  }),
  // 2: a house listed once per kind of land of its parcel (one kind a meadow: still the house's
  // own parcel), with a garage on the parcel that repeats its first kind, plus a separate
  // pleasure ground and a field → one offer with land 300 + 520 + 250 + 400 m² (a field on
  // another parcel is farmland, not the house's land).
  ...(['S', 'J', 'P'] as const).map((culture, i) => ({
    ...houseSale,
    adresse_numero: '3',
    adresse_nom_voie: 'CHEMIN DES VIGNES',
    nom_commune: 'Bourg-en-Bresse',
    code_departement: '01',
    id_parcelle: '01053000AC0100',
    code_type_local: '1',
    type_local: 'Maison',
    surface_reelle_bati: '120',
    nombre_pieces_principales: '5',
    code_nature_culture: culture,
    nature_culture: { S: 'sols', J: 'jardins', P: 'prés' }[culture],
    surface_terrain: ['300', '520', '250'][i],
    longitude: '5.2251',
    latitude: '46.2052',
  })),
  cellar({
    ...houseSale,
    id_parcelle: '01053000AC0100',
    code_nature_culture: 'S',
    nature_culture: 'sols',
    surface_terrain: '300',
    longitude: '5.2251',
    latitude: '46.2052',
  }),
  {
    ...houseSale,
    id_parcelle: '01053000AC0102',
    code_nature_culture: 'AG',
    nature_culture: "terrains d'agrément",
    surface_terrain: '400',
    longitude: '5.2255',
    latitude: '46.2055',
  },
  {
    ...houseSale,
    id_parcelle: '01053000AC0101',
    code_nature_culture: 'T',
    nature_culture: 'terres',
    surface_terrain: '1500',
    longitude: '5.2262',
    latitude: '46.2061',
  },
  // 3: two flats in one sale → skipped.
  ...['1', '2'].map((lot) =>
    flat({
      ...parisSale('2023-3', '2023-02-01', '600000'),
      lot1_numero: lot,
      surface_reelle_bati: '30',
      nombre_pieces_principales: '1',
      longitude: '2.34',
      latitude: '48.87',
    }),
  ),
  // 4: an off-plan flat with two parking spaces; no rooms stated (0) → isNew, rooms empty.
  flat({
    ...parisSale('2023-4', '2023-04-20', '298500', VEFA),
    lot1_numero: '7',
    surface_reelle_bati: '55.5',
    nombre_pieces_principales: '0',
    longitude: '2.335',
    latitude: '48.8655',
  }),
  cellar({ ...parisSale('2023-4', '2023-04-20', '298500', VEFA), lot1_numero: '71' }),
  cellar({ ...parisSale('2023-4', '2023-04-20', '298500', VEFA), lot1_numero: '72' }),
  // 5: an exchange → skipped.
  flat({ ...parisSale('2023-5', '2023-05-01', '200000', 'Echange'), surface_reelle_bati: '25' }),
  // 6: a cellar and a parking space only → skipped.
  cellar(parisSale('2023-6', '2023-05-02', '25000')),
  cellar({ ...parisSale('2023-6', '2023-05-02', '25000'), lot1_numero: '9' }),
  // 7: no price → skipped.
  flat({
    id_mutation: '2023-7',
    date_mutation: '2023-05-03',
    nature_mutation: SALE,
    ...paris2,
    surface_reelle_bati: '25',
  }),
  // 8: no living area → skipped.
  flat(parisSale('2023-8', '2023-05-04', '250000')),
  // 9: a flat sold with a shop → skipped.
  flat({ ...parisSale('2023-9', '2023-05-05', '900000'), surface_reelle_bati: '60' }),
  {
    ...parisSale('2023-9', '2023-05-05', '900000'),
    code_type_local: '4',
    type_local: 'Local industriel. commercial ou assimilé',
    surface_reelle_bati: '80',
  },
  // 10: a flat without coordinates, placed by its postcode → one offer.
  flat({
    ...parisSale('2023-10', '2023-06-30', '180000'),
    surface_reelle_bati: '19',
    nombre_pieces_principales: '1',
  }),
  // 11: neither postcode nor coordinates → skipped.
  flat({
    id_mutation: '2023-11',
    date_mutation: '2023-07-01',
    nature_mutation: SALE,
    valeur_fonciere: '180000',
    surface_reelle_bati: '19',
  }),
  // 12: building land → skipped.
  {
    id_mutation: '2023-12',
    date_mutation: '2023-07-02',
    nature_mutation: 'Vente terrain à bâtir',
    valeur_fonciere: '90000',
    code_postal: '01000',
    surface_terrain: '800',
  },
  // 13: two dispositions at different prices → skipped.
  flat({
    id_mutation: '2023-13',
    date_mutation: '2023-07-03',
    numero_disposition: '000001',
    nature_mutation: SALE,
    valeur_fonciere: '300000',
    ...paris2,
    surface_reelle_bati: '40',
  }),
  cellar({
    id_mutation: '2023-13',
    date_mutation: '2023-07-03',
    numero_disposition: '000002',
    nature_mutation: SALE,
    valeur_fonciere: '15000',
    ...paris2,
  }),
];

const EXPECTED_OFFERS = [
  'id,countryCode,dealType,propertyType,startDate,endDate,daysOnMarket,isActive,isNew,salePrice,livingArea,numberOfRooms,latitude,longitude,postalCode,title,street,houseNumber,landArea',
  'dvf-2023-2,FR,sale,house,2023-01-15,2023-01-15,,false,,350000.5,120.0,5,46.2052,5.2251,01000,"Maison, 3 CHEMIN DES VIGNES, Bourg-en-Bresse",CHEMIN DES VIGNES,3,1470.0',
  'dvf-2023-1,FR,sale,apartment,2023-03-02,2023-03-02,,false,,412000.0,42.0,2,48.869,2.331,75002,"Appartement, 12 B RUE DE LA PAIX, COUR A, Paris 2e Arrondissement","RUE DE LA PAIX, COUR A",12,',
  'dvf-2023-4,FR,sale,apartment,2023-04-20,2023-04-20,,false,true,298500.0,55.5,,48.8655,2.335,75002,"Appartement, Paris 2e Arrondissement",,,',
  'dvf-2023-10,FR,sale,apartment,2023-06-30,2023-06-30,,false,,180000.0,19.0,1,,,75002,"Appartement, Paris 2e Arrondissement",,,',
];

const EXPECTED_SUMMARY = {
  rows: LOTS.length,
  sales: 13,
  offers: 4,
  skipped: {
    otherNature: 2,
    noDwelling: 1,
    severalDwellings: 1,
    commercialPremises: 1,
    noDate: 0,
    noPrice: 1,
    severalPrices: 1,
    noLivingArea: 1,
    notPlaced: 1,
    overseas: 0,
  },
  rowsWithoutId: 0,
};

function geoDvf(lots: Lot[], delimiter: string, columns: readonly string[] = GEO_DVF_COLUMNS) {
  const cell = (v = '') =>
    v.includes(delimiter) || v.includes('"') ? `"${v.replaceAll('"', '""')}"` : v;
  const lines = lots.map((lot) => columns.map((c) => cell(lot[c as keyof Lot])).join(delimiter));
  return [columns.join(delimiter), ...lines].join('\n') + '\n';
}

function readText(file: string): string {
  const bytes = fs.readFileSync(file);
  return (file.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes).toString('utf8');
}

describe('convert dvf', () => {
  it.each([
    ['comma-separated', ',', 'dvf.csv', 'offers.csv'],
    ['semicolon-separated, gzip', ';', 'dvf.csv.gz', 'offers.csv.gz'],
    ['comma-separated, gzip', ',', 'dvf.csv.gz', 'offers.csv'],
  ])(
    'turns each sale of one dwelling into one offer and counts the rest (%s)',
    async (_, delimiter, name, out) => {
      const dir = scratch();
      const source = path.join(dir, name);
      const text = geoDvf(LOTS, delimiter);
      fs.writeFileSync(source, name.endsWith('.gz') ? zlib.gzipSync(text) : text);
      const target = path.join(dir, out);
      expect(await convertDvf(source, target)).toEqual(EXPECTED_SUMMARY);
      expect(readText(target)).toBe(EXPECTED_OFFERS.join('\n') + '\n');
    },
  );

  it('reads a column subset: without nature_mutation every sale is a Vente', async () => {
    const dir = scratch();
    const source = path.join(dir, 'subset.csv');
    const subset = [
      'id_mutation',
      'date_mutation',
      'valeur_fonciere',
      'code_postal',
      'code_commune',
      'type_local',
      'surface_reelle_bati',
      'nombre_pieces_principales',
      'longitude',
      'latitude',
    ];
    fs.writeFileSync(source, geoDvf(LOTS.slice(0, 2), ',', subset));
    const target = path.join(dir, 'offers.csv');
    const result = await convertDvf(source, target);
    expect(result.offers).toBe(1);
    expect(readText(target).split('\n')[1]).toBe(
      'dvf-2023-1,FR,sale,apartment,2023-03-02,2023-03-02,,false,,412000.0,42.0,2,48.869,2.331,75002,Appartement,,,',
    );
  });

  it('reads gzip by its content and any line end, whatever the name says', async () => {
    const dir = scratch();
    const text = geoDvf(LOTS, ',');
    const cases: [string, Buffer | string][] = [
      ['gzip-named-csv.csv', zlib.gzipSync(text)],
      ['CAPITALS.CSV.GZ', zlib.gzipSync(text)],
      ['crlf.csv', text.replaceAll('\n', '\r\n')],
      ['cr-only.csv', text.replaceAll('\n', '\r')],
    ];
    for (const [name, content] of cases) {
      const source = path.join(dir, name);
      fs.writeFileSync(source, content);
      const target = path.join(dir, `${name}.offers.csv`);
      expect(await convertDvf(source, target), name).toEqual(EXPECTED_SUMMARY);
      expect(readText(target), name).toBe(EXPECTED_OFFERS.join('\n') + '\n');
    }
  });

  it('reads dates written day/month/year, as some exports of the same data do', async () => {
    const dir = scratch();
    const source = path.join(dir, 'dmy.csv');
    const dayFirst = (lot: Lot): Lot => {
      const iso = lot.date_mutation;
      if (iso === undefined) return lot;
      const [y, m, d] = iso.split('-');
      return { ...lot, date_mutation: `${d ?? ''}/${m ?? ''}/${y ?? ''}` };
    };
    fs.writeFileSync(source, geoDvf(LOTS.map(dayFirst), ';'));
    const target = path.join(dir, 'offers.csv');
    expect(await convertDvf(source, target)).toEqual(EXPECTED_SUMMARY);
    expect(readText(target)).toBe(EXPECTED_OFFERS.join('\n') + '\n');
  });

  it('skips prices and areas that are not finite or beyond the offer format, and restores a decimal postcode', async () => {
    const dir = scratch();
    const source = path.join(dir, 'odd.csv');
    const sale = (id: string, price: string, area: string, postcode = '75002'): Lot =>
      flat({
        ...parisSale(id, '2023-05-02', price),
        code_postal: postcode,
        surface_reelle_bati: area,
      });
    fs.writeFileSync(
      source,
      geoDvf(
        [
          sale('p1', 'inf', '40'),
          sale('p2', 'NaN', '40'),
          sale('p3', '1e15', '40'),
          sale('a1', '300000', 'NaN'),
          sale('a2', '300000', '1e9'),
          sale('ok1', '10000000000', '100000'),
          sale('ok2', '250000', '30', '1000.0'),
        ],
        ',',
      ),
    );
    const target = path.join(dir, 'offers.csv');
    const result = await convertDvf(source, target);
    expect([result.offers, result.skipped.noPrice, result.skipped.noLivingArea]).toEqual([2, 3, 2]);
    const lines = readText(target).trim().split('\n').slice(1);
    expect(lines.map((l) => l.split(',').slice(0, 1).concat(l.split(',').slice(9, 11)))).toEqual([
      ['dvf-ok1', '10000000000.0', '100000.0'],
      ['dvf-ok2', '250000.0', '30.0'],
    ]);
    expect(lines[1]?.split(',')[14]).toBe('01000');
  });

  it('reads a file with an unnamed column (a spreadsheet index, a separator ending each line)', async () => {
    const dir = scratch();
    const [head = '', ...rows] = geoDvf(LOTS, ',').trimEnd().split('\n');
    const cases: [string, string][] = [
      ['index.csv', [`,${head}`, ...rows.map((r, i) => `${String(i)},${r}`)].join('\n')],
      ['trailing.csv', [head, ...rows].map((l) => `${l},`).join('\n')],
    ];
    for (const [name, text] of cases) {
      const source = path.join(dir, name);
      fs.writeFileSync(source, `${text}\n`);
      const target = path.join(dir, `${name}.offers.csv`);
      expect(await convertDvf(source, target), name).toEqual(EXPECTED_SUMMARY);
      expect(readText(target), name).toBe(EXPECTED_OFFERS.join('\n') + '\n');
    }
  });

  it('counts files joined end to end once, rows without an id apart, and overseas sales as skipped', async () => {
    const dir = scratch();
    const source = path.join(dir, 'joined.csv');
    const text = geoDvf(LOTS, ',');
    const [head = ''] = text.split('\n');
    const noId = geoDvf([{ ...parisSale('x', '2023-05-02', '250000') }], ',').split('\n')[1] ?? '';
    const guadeloupe = geoDvf(
      [
        flat({
          ...parisSale('gp1', '2023-05-02', '180000'),
          code_postal: '97110',
          surface_reelle_bati: '60',
        }),
      ],
      ',',
    ).split('\n')[1];
    // The second file's header line (with its byte-order mark) is a row of the first to a CSV
    // reader.
    fs.writeFileSync(
      source,
      `${text}\uFEFF${head}\n${noId.replace(/^[^,]*/, '')}\n${guadeloupe ?? ''}\n`,
    );
    const target = path.join(dir, 'offers.csv');
    expect(await convertDvf(source, target)).toEqual({
      ...EXPECTED_SUMMARY,
      rows: LOTS.length + 2,
      sales: EXPECTED_SUMMARY.sales + 1,
      rowsWithoutId: 1,
      skipped: { ...EXPECTED_SUMMARY.skipped, overseas: 1 },
    });
    expect(readText(target)).toBe(EXPECTED_OFFERS.join('\n') + '\n');
  });

  it('reads gzip files joined with cat (two gzip members) as one file of both years', async () => {
    const dir = scratch();
    const lines = geoDvf(LOTS, ',').trimEnd().split('\n');
    const [head = ''] = lines;
    // Cut between two lots of different sales, as two yearly files are.
    const cut = lines.findIndex(
      (line, i) => i > 1 && line.split(',')[0] !== lines[i - 1]?.split(',')[0],
    );
    expect(cut).toBeGreaterThan(1);
    const first = `${lines.slice(0, cut).join('\n')}\n`;
    const second = `${head}\n${lines.slice(cut).join('\n')}\n`;
    const source = path.join(dir, 'years.csv.gz');
    fs.writeFileSync(source, Buffer.concat([zlib.gzipSync(first), zlib.gzipSync(second)]));
    const target = path.join(dir, 'offers.csv');
    expect(await convertDvf(source, target)).toEqual(EXPECTED_SUMMARY);
    expect(readText(target)).toBe(EXPECTED_OFFERS.join('\n') + '\n');
  });

  it('names the line of a row with the wrong number of fields', async () => {
    const dir = scratch();
    const lines = geoDvf(LOTS, ',').trimEnd().split('\n');
    lines[5] = `${lines[5] ?? ''},extra`;
    const source = path.join(dir, 'wide.csv');
    fs.writeFileSync(source, `${lines.join('\n')}\n`);
    await expect(convertDvf(source, path.join(dir, 'o.csv'))).rejects.toThrow(
      `cannot read ${source}: line 6 has ${String(GEO_DVF_COLUMNS.length + 1)} fields, the header ${String(GEO_DVF_COLUMNS.length)}`,
    );
  });

  it('refuses a gzip file cut short instead of converting the rows before the cut', async () => {
    const dir = scratch();
    const whole = zlib.gzipSync(geoDvf(LOTS, ','));
    const source = path.join(dir, 'cut.csv.gz');
    fs.writeFileSync(source, whole.subarray(0, Math.floor(whole.length * 0.8)));
    const target = path.join(dir, 'offers.csv');
    await expect(convertDvf(source, target)).rejects.toThrow(/is not a whole gzip file/);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('refuses a folder as its source with a clear error', async () => {
    const dir = scratch();
    await expect(convertDvf(dir, path.join(dir, 'o.csv'))).rejects.toThrow(
      new RegExp(`^cannot read ${dir}: EISDIR`),
    );
    await expect(convertDvf(dir, path.join(dir, 'o.csv'))).rejects.toBeInstanceOf(DvfFormatError);
  });

  it('refuses a file without the required columns, naming them', async () => {
    const dir = scratch();
    const source = path.join(dir, 'other.csv');
    fs.writeFileSync(source, 'id_mutation;date_mutation;type_local\n1;2023-01-01;Maison\n');
    await expect(convertDvf(source, path.join(dir, 'o.csv'))).rejects.toThrow(
      new DvfFormatError(
        `${source} is not a geolocated DVF file: missing columns valeur_fonciere, surface_reelle_bati`,
      ),
    );
  });

  it('writes offers the importer takes as they are', async () => {
    const dir = scratch();
    const source = path.join(dir, 'dvf.csv');
    fs.writeFileSync(source, geoDvf(LOTS, ','));
    const target = path.join(dir, 'offers.csv.gz');
    await convertDvf(source, target);
    const dataDir = path.join(dir, 'data');
    const report = await importFile(dataDir, 'offers', target, { today: '2026-01-01' });
    expect(report).toMatchObject({ read: 4, imported: 4, rejected: 0 });
    expect(
      await snapshotRows(
        dataDir,
        `select id, property_type, is_new, is_active, sale_price, division_level6, division_level100
         from offers order by id`,
      ),
    ).toEqual([
      {
        id: 'dvf-2023-1',
        property_type: 'apartment',
        is_new: null,
        is_active: false,
        sale_price: 412000,
        division_level6: '75',
        division_level100: '75002',
      },
      {
        id: 'dvf-2023-10',
        property_type: 'apartment',
        is_new: null,
        is_active: false,
        sale_price: 180000,
        division_level6: '75',
        division_level100: '75002',
      },
      {
        id: 'dvf-2023-2',
        property_type: 'house',
        is_new: null,
        is_active: false,
        sale_price: 350000.5,
        division_level6: '01',
        division_level100: '01000',
      },
      {
        id: 'dvf-2023-4',
        property_type: 'apartment',
        is_new: true,
        is_active: false,
        sale_price: 298500,
        division_level6: '75',
        division_level100: '75002',
      },
    ]);
  });
});

const { path: PARIS, available: paris } = sharedData('dvf-paris/dvf-paris-2020-2024.csv.gz');

describe.skipIf(!paris)('real Paris sales (column subset of geolocated DVF)', () => {
  it('convert and import: every sale is one dwelling, all placed in Paris', async () => {
    const dir = scratch();
    const target = path.join(dir, 'paris.csv.gz');
    const result = await convertDvf(PARIS, target);
    expect(result).toMatchObject({ rows: 46_634, sales: 46_634, offers: 46_634 });
    const dataDir = path.join(dir, 'data');
    const report = await importFile(dataDir, 'offers', target, { today: '2026-01-01' });
    expect(report).toMatchObject({ imported: 46_634, rejected: 0 });
    expect(
      await snapshotRows(
        dataDir,
        `select count(*)::integer as n, count(distinct division_level100)::integer as postcodes,
           count(*) filter (where property_type = 'house')::integer as houses,
           count(*) filter (where latitude is null)::integer as without_coordinates,
           count(*) filter (where division_level6 = '75')::integer as in_paris,
           count(days_on_market)::integer as with_days_on_market,
           min(start_date)::varchar as first, max(start_date)::varchar as last
         from offers`,
      ),
    ).toEqual([
      {
        n: 46_634,
        postcodes: 20,
        houses: 246,
        without_coordinates: 70,
        in_paris: 46_634,
        // A recorded sale does not say how long it was offered: statistics leave it out.
        with_days_on_market: 0,
        first: '2020-07-01',
        last: '2024-12-31',
      },
    ]);
  }, 120_000);
});
