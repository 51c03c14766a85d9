import type { DuckDBConnection } from '@duckdb/node-api';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { openDuck, queryOne, queryRows, sqlString } from '../duck.js';
import { csvProblem } from './csv-problem.js';
import { MAX_AREA, MAX_LAND_AREA, MAX_PRICE } from '../import/offers.js';

/** A DVF file this converter cannot read: the message says why. */
export class DvfFormatError extends Error {}

/** Memory the conversion's database may hold before it spills to its temporary folder. */
const CONVERT_MEMORY_LIMIT = '1GB';

/** Columns without which a row cannot become an offer. */
const REQUIRED = [
  'id_mutation',
  'date_mutation',
  'valeur_fonciere',
  'type_local',
  'surface_reelle_bati',
] as const;

/**
 * Columns read when present. A file without `nature_mutation` (a column subset already reduced
 * to sales) counts every row as a `Vente`.
 */
const OPTIONAL = [
  'nature_mutation',
  'code_postal',
  'nombre_pieces_principales',
  'longitude',
  'latitude',
  'adresse_numero',
  'adresse_suffixe',
  'adresse_nom_voie',
  'nom_commune',
  'id_parcelle',
  'code_nature_culture',
  'code_nature_culture_speciale',
  'surface_terrain',
] as const;

/**
 * Columns describing the land under a row. DVF repeats a dwelling's row once per kind of land
 * ("nature de culture") of its parcel, so rows differing only in these are one dwelling.
 */
const LAND_COLUMNS = new Set([
  'code_nature_culture',
  'nature_culture',
  'code_nature_culture_speciale',
  'nature_culture_speciale',
  'surface_terrain',
]);

/**
 * The kinds of land (`code_nature_culture`) a house's land counts beyond its own parcel: ground
 * (sols), garden (jardins), pleasure grounds (terrains d'agrément) and building land (terrains à
 * bâtir). Fields, meadows, woods, heath, vines and orchards sold with a house are priced as
 * farmland, a small fraction per m²: counted as land they made a farmhouse on 3 hectares look
 * like a villa on its plot. The house's own parcel counts whatever its kind (the register may
 * class a house's 126 m² as meadow: it is still its plot, not a house without land), as does a
 * piece whose kind is not given (a column subset without it).
 */
const RESIDENTIAL_LAND = ['S', 'J', 'AG', 'AB'] as const;

const SALE = 'Vente';
const OFF_PLAN = "Vente en l'état futur d'achèvement";
const DWELLINGS: Record<string, 'apartment' | 'house'> = {
  Appartement: 'apartment',
  Maison: 'house',
};
/** Lots that come with a dwelling without making the sale something else. */
const DEPENDENCY = 'Dépendance';

/** Why a sale gives no offer, in the order the rules are applied; each sale counts once. */
export const DVF_SKIP_REASONS = {
  otherNature: 'not a sale or off-plan sale (exchange, auction, expropriation, building land…)',
  noDwelling: 'no apartment or house (dependencies, land or commercial premises only)',
  severalDwellings: 'several apartments or houses in one sale',
  commercialPremises: 'a dwelling sold with commercial or industrial premises',
  noDate: 'no valid date',
  noPrice: 'no price, or one beyond the limit of the offer format',
  severalPrices: 'lots with different prices in one sale',
  noLivingArea: 'no living area, or one beyond the limit of the offer format',
  notPlaced: 'neither postcode nor coordinates',
  overseas:
    'in an overseas département or territory (postcode 97… or 98…): the shipped divisions of France cover metropolitan France and Corsica',
} as const;
export type DvfSkipReason = keyof typeof DVF_SKIP_REASONS;

export interface DvfConversion {
  /** Rows (lots) read, without the header lines of files joined end to end. */
  rows: number;
  /** Rows without an `id_mutation`: no sale to count them in, so left out. */
  rowsWithoutId: number;
  /** Distinct sales (`id_mutation`) read. */
  sales: number;
  /** Offers written: sales of exactly one dwelling. */
  offers: number;
  skipped: Record<DvfSkipReason, number>;
}

/** Whether a file is gzip-compressed, by its first bytes (its name may say otherwise). */
function isGzip(file: string): boolean {
  const bytes = Buffer.alloc(2);
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    return fs.readSync(fd, bytes, 0, 2, 0) === 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  } catch (error) {
    // A folder, a file without read permission.
    throw new DvfFormatError(`cannot read ${file}: ${(error as Error).message}`);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Reads a gzip file to its end: DuckDB's reader takes a stream cut short (a download broken
 * off) as the end of the data, and the rows before the cut, the last one cut in its middle,
 * would convert as if they were all.
 */
async function checkGzip(file: string): Promise<void> {
  try {
    await pipeline(
      fs.createReadStream(file),
      zlib.createGunzip(),
      new Writable({ write: (_chunk, _encoding, done) => done() }),
    );
  } catch (error) {
    throw new DvfFormatError(
      `${file} is not a whole gzip file (${(error as Error).message}): it may have been cut short`,
    );
  }
}

/** The first line of a file (any line end), gunzipped if it is compressed. */
async function firstLine(file: string, gzip: boolean): Promise<string> {
  const raw = fs.createReadStream(file);
  const stream = gzip ? raw.pipe(zlib.createGunzip()) : raw;
  let text = '';
  try {
    for await (const chunk of stream) {
      text += (chunk as Buffer).toString('utf8');
      const end = text.search(/[\r\n]/);
      if (end >= 0) return text.slice(0, end);
      if (text.length > 1_000_000) break;
    }
  } catch (error) {
    throw new DvfFormatError(`cannot read ${file}: ${(error as Error).message}`);
  } finally {
    raw.destroy();
  }
  return text;
}

/** The separator (`,` or `;`, whichever the header has more of) and the column names. */
async function header(
  file: string,
  gzip: boolean,
): Promise<{ delimiter: string; columns: string[] }> {
  const line = (await firstLine(file, gzip)).replace(/^\uFEFF/, '');
  const count = (c: string) => line.split(c).length - 1;
  const delimiter = count(';') > count(',') ? ';' : ',';
  const columns = line.split(delimiter).map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (missing.length > 0)
    throw new DvfFormatError(
      `${file} is not a geolocated DVF file: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
    );
  return { delimiter, columns };
}

const q = (column: string) => `"${column.replaceAll('"', '""')}"`;
/** A decimal read from text; the raw DGFiP files write a decimal comma, Etalab's a point. */
const decimal = (column: string) => `try_cast(replace(trim(${q(column)}), ',', '.') as double)`;
const text = (column: string) => `nullif(trim(${q(column)}), '')`;

/**
 * Converts Etalab's geolocated DVF ("demandes de valeurs foncières géolocalisées": one CSV per
 * département and year, `,` or `;` separated, optionally gzip, one row per lot, several rows per
 * sale) into canonical sale offers: one per sale (`id_mutation`) of exactly one apartment or
 * house, with any dependencies (cellars, parking spaces, land). A column subset converts too, as
 * long as it has the required columns. Sales with several dwellings, with commercial premises,
 * of another nature, without price, living area or place are skipped and counted.
 */
export async function convertDvf(source: string, target: string): Promise<DvfConversion> {
  if (!fs.existsSync(source)) throw new DvfFormatError(`${source} does not exist`);
  const gzip = isGzip(source);
  const { delimiter, columns: named } = await header(source, gzip);
  if (gzip) await checkGzip(source);
  // A database file of its own, in a folder removed at the end whatever happens, with a memory
  // limit: a département's files of several years hold millions of rows, which spill to disk
  // rather than take memory in proportion (about 2 GB per million rows held in memory). The
  // folder is the system's temporary one (`TMPDIR`): where that is memory (tmpfs), point it at
  // a disk.
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'propdata-dvf-'));
  try {
    return await convertIn(work, { source, target, gzip, delimiter, named });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The conversion itself, in a database file in `work`. */
async function convertIn(
  work: string,
  file: { source: string; target: string; gzip: boolean; delimiter: string; named: string[] },
): Promise<DvfConversion> {
  const instance = await openDuck(path.join(work, 'convert.duckdb'), {
    memoryLimit: CONVERT_MEMORY_LIMIT,
  });
  const db = await instance.connect();
  try {
    const columns = await readRows(db, file);
    await createLots(db, columns);
    await createSales(db);
    await classifySales(db);
    await writeOffers(db, file.target);
    return await countConversion(db);
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

/**
 * The file's rows, as text, in table `raw`, with every optional column (absent ones empty, or a
 * sale); the names of its columns that name something.
 */
async function readRows(
  db: DuckDBConnection,
  file: { source: string; gzip: boolean; delimiter: string; named: string[] },
): Promise<string[]> {
  const { source, gzip, delimiter, named } = file;
  try {
    await db.run(
      `create temp table raw as select * from read_csv(${sqlString(source)}, header = true,
         all_varchar = true, delim = ${sqlString(delimiter)}, quote = '"', escape = '"', skip = 0,
         strict_mode = true, compression = '${gzip ? 'gzip' : 'none'}')`,
    );
  } catch (error) {
    // DuckDB's message ends in advice about its own options; the first line says what it met.
    const problem =
      (await csvProblem(source, { gzip, delimiter })) ??
      (error as Error).message.split('\n')[0] ??
      '';
    throw new DvfFormatError(`cannot read ${source}: ${problem}`);
  }
  // The columns as DuckDB names them. An unnamed one (a spreadsheet's row index, a separator
  // at the end of every line) gets a name of its own, and says nothing about the lot.
  const columns = (await queryRows(db, 'select column_name from (describe raw)'))
    .map((r) => String(r.column_name))
    .filter((_, i) => named[i] !== '');
  const present = new Set(columns);
  for (const column of OPTIONAL) {
    if (present.has(column)) continue;
    const fill = column === 'nature_mutation' ? sqlString(SALE) : 'null';
    await db.run(`alter table raw add column ${q(column)} varchar default ${fill}`);
  }
  return columns;
}

/** One row per lot (table `lots`): its sale, what it is, and the sale's facts as numbers. */
async function createLots(db: DuckDBConnection, columns: readonly string[]): Promise<void> {
  // One dwelling is one distinct row once the land columns are left out.
  const dwellingKey = `[${columns
    .filter((c) => !LAND_COLUMNS.has(c))
    .map(q)
    .join(', ')}]`;
  const dwellingTypes = Object.keys(DWELLINGS).map(sqlString).join(', ');
  await db.run(`
    create temp table lots as
    select ${text('id_mutation')} as sale_id,
      -- Etalab writes ISO dates; DGFiP's own files and some exports day/month/year.
      coalesce(try_cast(trim(date_mutation) as date),
        try_strptime(trim(date_mutation), '%d/%m/%Y')::date) as sale_date,
      ${text('nature_mutation')} as nature,
      ${decimal('valeur_fonciere')} as price,
      ${text('type_local')} as kind,
      coalesce(${text('type_local')} in (${dwellingTypes}), false) as is_dwelling,
      ${decimal('surface_reelle_bati')} as living_area,
      try_cast(${decimal('nombre_pieces_principales')} as integer) as rooms,
      ${decimal('latitude')} as latitude,
      ${decimal('longitude')} as longitude,
      -- Postcodes read as numbers elsewhere lose their leading zero (01000 → 1000), or gain
      -- decimals (1000.0).
      case when regexp_matches(trim(code_postal), '^[0-9]{4,5}(\\.0+)?$')
        then lpad(regexp_extract(trim(code_postal), '^[0-9]+'), 5, '0')
        else ${text('code_postal')} end as postcode,
      nullif(concat_ws(' ', ${text('adresse_numero')}, ${text('adresse_suffixe')}, ${text('adresse_nom_voie')}), '') as address,
      ${text('adresse_nom_voie')} as street,
      ${text('adresse_numero')} as house_number,
      ${text('nom_commune')} as place,
      ${dwellingKey} as dwelling_key,
      ${decimal('surface_terrain')} as land_surface,
      ${text('code_nature_culture')} as land_kind,
      ${text('id_parcelle')} as parcel,
      -- A piece of land is a parcel's area of one kind; DVF repeats it on every lot of the parcel.
      [${text('id_parcelle')}, ${text('code_nature_culture')}, ${text('code_nature_culture_speciale')}, ${text('surface_terrain')}] as land_key
    from raw
    -- Files joined end to end repeat their header line (with its byte-order mark, if any).
    where replace(trim(id_mutation), chr(65279), '') is distinct from 'id_mutation'`);
}

/** One row per sale (table `sales`): its dwellings, other premises, price and the dwelling's facts. */
async function createSales(db: DuckDBConnection): Promise<void> {
  await db.run(`
    create temp table sale_land as
    select sale_id, sum(land_surface) as land
    from (select distinct sale_id, land_key, land_surface from lots l
          where land_surface > 0 and isfinite(land_surface)
            and (land_kind is null or land_kind in (${RESIDENTIAL_LAND.map(sqlString).join(', ')})
              -- The dwelling's own parcel is its plot, whatever the land register calls it.
              or exists (select 1 from lots d where d.sale_id = l.sale_id and d.is_dwelling
                           and d.parcel = l.parcel)))
    group by sale_id`);
  await db.run(`
    create temp table sales as
    select sale_id,
      min(sale_date) as sale_date,
      any_value(nature) as nature,
      count(distinct dwelling_key) filter (where is_dwelling) as dwellings,
      count(*) filter (where kind is not null and not is_dwelling and kind <> ${sqlString(DEPENDENCY)}) as premises,
      count(distinct price) as prices,
      max(price) as price,
      any_value(kind) filter (where is_dwelling) as kind,
      any_value(living_area) filter (where is_dwelling) as living_area,
      any_value(rooms) filter (where is_dwelling) as rooms,
      any_value(latitude) filter (where is_dwelling) as latitude,
      any_value(longitude) filter (where is_dwelling) as longitude,
      any_value(postcode) filter (where is_dwelling) as postcode,
      any_value(address) filter (where is_dwelling) as address,
      any_value(street) filter (where is_dwelling) as street,
      any_value(house_number) filter (where is_dwelling) as house_number,
      any_value(place) filter (where is_dwelling) as place,
      any_value(land) as land
    from lots left join sale_land using (sale_id)
    where sale_id is not null group by sale_id`);
}

const COORDINATES =
  'latitude between -90 and 90 and longitude between -180 and 180 and latitude is not null and longitude is not null';

/** Why a sale is not converted, as conditions on its row of `sales`, tried in this order. */
const SKIP_RULES: Record<DvfSkipReason, string> = {
  otherNature: `nature is null or nature not in (${sqlString(SALE)}, ${sqlString(OFF_PLAN)})`,
  noDwelling: 'dwellings = 0',
  severalDwellings: 'dwellings > 1',
  commercialPremises: 'premises > 0',
  noDate: 'sale_date is null',
  // NaN and infinities read from text are not prices (DuckDB orders NaN above all numbers).
  noPrice: `price is null or not isfinite(price) or price <= 0 or price > ${String(MAX_PRICE)}`,
  severalPrices: 'prices > 1',
  noLivingArea: `living_area is null or not isfinite(living_area) or not (living_area > 0) or living_area > ${String(MAX_AREA)}`,
  notPlaced: `postcode is null and not (${COORDINATES})`,
  overseas: `left(postcode, 2) in ('97', '98')`,
};

/** Each sale with the first rule that skips it, if any (table `classified`). */
async function classifySales(db: DuckDBConnection): Promise<void> {
  await db.run(`
    create temp table classified as
    select *, case ${Object.entries(SKIP_RULES)
      .map(([reason, rule]) => `when ${rule} then '${reason}'`)
      .join(' ')} end as skip
    from sales`);
}

/** The sales kept, as canonical sale offers, written to `target` (gzip if it ends in .gz). */
async function writeOffers(db: DuckDBConnection, target: string): Promise<void> {
  await db.run(`
    create temp table converted as
    select
      'dvf-' || sale_id as id,
      'FR' as "countryCode",
      'sale' as "dealType",
      case kind ${Object.entries(DWELLINGS)
        .map(([k, v]) => `when ${sqlString(k)} then '${v}'`)
        .join(' ')} end as "propertyType",
      strftime(sale_date, '%Y-%m-%d') as "startDate",
      -- A sale ends the property's time on the market on the day it is signed.
      strftime(sale_date, '%Y-%m-%d') as "endDate",
      -- How long it was offered before, DVF does not say: the column, empty, says unknown.
      null::varchar as "daysOnMarket",
      'false' as "isActive",
      case when nature = ${sqlString(OFF_PLAN)} then 'true' end as "isNew",
      price as "salePrice",
      living_area as "livingArea",
      case when rooms > 0 then rooms end as "numberOfRooms",
      case when ${COORDINATES} then latitude end as latitude,
      case when ${COORDINATES} then longitude end as longitude,
      postcode as "postalCode",
      left(concat_ws(', ', kind, address, place), 500) as title,
      street, house_number as "houseNumber",
      -- A house's land: its own parcel and its plot's other pieces (RESIDENTIAL_LAND); an
      -- apartment's parcel is its building's.
      case when kind = 'Maison' and land <= ${String(MAX_LAND_AREA)} then land end as "landArea"
    from classified where skip is null
    order by sale_date, sale_id`);
  await db.run(
    `copy converted to ${sqlString(target)} (header${target.toLowerCase().endsWith('.gz') ? ', compression gzip' : ''})`,
  );
}

/** What the conversion read, made and skipped. */
async function countConversion(db: DuckDBConnection): Promise<DvfConversion> {
  const totals = await queryOne(
    db,
    `select (select count(*) from lots)::integer as rows, (select count(*) from sales)::integer as sales,
            (select count(*) from converted)::integer as offers,
            (select count(*) from lots where sale_id is null)::integer as without_id`,
  );
  const skipped = Object.fromEntries(Object.keys(DVF_SKIP_REASONS).map((k) => [k, 0])) as Record<
    DvfSkipReason,
    number
  >;
  for (const r of await queryRows(
    db,
    'select skip, count(*)::integer as n from classified where skip is not null group by skip',
  ))
    skipped[String(r.skip) as DvfSkipReason] = Number(r.n);
  return {
    rows: Number(totals?.rows ?? 0),
    rowsWithoutId: Number(totals?.without_id ?? 0),
    sales: Number(totals?.sales ?? 0),
    offers: Number(totals?.offers ?? 0),
    skipped,
  };
}
