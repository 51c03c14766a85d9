import type { DuckDBAppender } from '@duckdb/node-api';
import { dateValue } from '@duckdb/node-api';
import { buildSnapshot, copyPrevious } from '../build-snapshot.js';
import { COUNTRIES, type CountryCode } from '../countries.js';
import { ensureMarketData } from '../import/run-import.js';
import { silentProgress, type Progress } from '../progress.js';
import {
  OFFER_COLUMNS,
  OFFER_SORT_ORDER,
  OFFER_TRUTH_COLUMNS,
  PROJECT_COLUMNS,
} from '../schema.js';
import {
  BASE_PRICE_PER_M2,
  CITIES,
  COUNTRY_SHARE,
  GROSS_YIELD,
  priceIndex,
  rentIndex,
  SALE_SHARE,
} from './market-model.js';
import { DEMO_INDICATOR_DIVISIONS_KEY, generateIndicators } from './indicators.js';
import { placeAreas } from './place-areas.js';
import { DEMO_ID_PREFIX, generatePlaces } from './places.js';
import {
  isResidentialPostcode,
  loadPostcodes,
  postcodeWeights,
  type Postcode,
} from './postcodes.js';
import { cumulativeSums, Random } from './random.js';

export interface GenerateOptions {
  offers: number;
  projects: number;
  seed: number;
  /** Last possible publication date, `YYYY-MM-DD` (default: today, UTC). */
  today?: string;
  progress?: Progress;
}

export interface GenerateResult {
  offers: number;
  projects: number;
  pois: number;
  stops: number;
  /** Indicator values, and the divisions they describe. */
  indicators: number;
  divisions: number;
}

const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2015, 0, 1) / DAY_MS;

function buildingYear(random: Random, startYear: number): number {
  const u = random.uniform();
  if (u < 0.25) return random.int(1880, 1945);
  if (u < 0.6) return random.int(1946, 1990);
  if (u < 0.85) return random.int(1991, 2015);
  return random.int(2016, startYear + 1);
}

function ageFactor(year: number, startYear: number): number {
  if (year >= startYear - 1) return 1.18;
  if (year >= 1991) return 1.06;
  if (year >= 1946) return 0.9;
  return 1.0;
}

const round = (value: number, step: number) => Math.round(value / step) * step;

interface OfferWriter {
  appender: DuckDBAppender;
  truth: DuckDBAppender;
  random: Random;
  todayDay: number;
}

function appendNullable(
  appender: DuckDBAppender,
  value: number | null,
  kind: 'double' | 'int',
): void {
  if (value === null) appender.appendNull();
  else if (kind === 'int') appender.appendInteger(value);
  else appender.appendDouble(value);
}

/** Draws one offer around `pc` and appends it; column order follows OFFER_COLUMNS. */
function appendOffer(w: OfferWriter, pc: Postcode, index: number): void {
  const { random, appender } = w;
  const cc = pc.country;
  const span = w.todayDay - FIRST_DAY;
  // More offers in later years: the market (and listing coverage) grew.
  const startDay = FIRST_DAY + Math.floor(span * (1 - (1 - random.uniform()) ** 1.3));
  const startYearFraction = 1970 + startDay / 365.2425;
  const startYear = Math.floor(startYearFraction);
  const isSale = random.chance(SALE_SHARE[cc]);
  const isHouse = random.chance(pc.location > 1.3 ? 0.08 : 0.32);
  const area = Math.min(
    600,
    Math.max(18, random.logNormal(isHouse ? 135 : 68, isHouse ? 0.3 : 0.35)),
  );
  const livingArea = round(area, 1);
  const rawRooms = livingArea / (isHouse ? 30 : 26) + 0.6 * random.normal();
  const rooms =
    cc === 'CH' ? Math.max(1, round(rawRooms + 0.5, 0.5)) : Math.max(1, Math.round(rawRooms));
  const year = buildingYear(random, startYear);
  const isNew = year >= startYear - 1;
  const perM2 =
    BASE_PRICE_PER_M2[cc] *
    pc.location *
    pc.regional *
    (isHouse ? 0.88 : 1) *
    ageFactor(year, startYear) *
    (livingArea / 70) ** -0.1;
  const value2025 = perM2 * livingArea;
  const yieldRate = GROSS_YIELD[cc] * pc.location ** -0.25;
  const trueSale = value2025 * priceIndex(startYearFraction);
  const trueRent = ((value2025 * yieldRate) / 12) * rentIndex(startYearFraction);
  const salePrice = isSale ? round(trueSale * Math.exp(0.12 * random.normal()), 1000) : null;
  const rentGross = isSale ? null : round(trueRent * Math.exp(0.1 * random.normal()), 10);
  const rentNet = rentGross === null ? null : round(rentGross * random.between(0.78, 0.86), 10);
  // Listings that linger longer than 18 months are withdrawn in practice.
  const dom = Math.min(
    540,
    Math.max(1, Math.round(random.logNormal(isSale ? 60 : 21, isSale ? 0.8 : 0.7))),
  );
  const endDay = startDay + dom;
  // A listing whose last day is today is still online today, as the import reads an end date of
  // today (import/offers.ts); it keeps that end date.
  const active = endDay >= w.todayDay;

  appender.appendVarchar(cc);
  appender.appendVarchar(`demo-${cc.toLowerCase()}-${index}`);
  appender.appendVarchar(isSale ? 'sale' : 'rent');
  appender.appendVarchar(isHouse ? 'house' : 'apartment');
  appender.appendDate(dateValue(startDay));
  if (endDay > w.todayDay) appender.appendNull();
  else appender.appendDate(dateValue(endDay));
  appender.appendBoolean(active);
  appender.appendBoolean(isNew);
  appender.appendBoolean(random.chance(0.25));
  appendNullable(appender, salePrice, 'double');
  appendNullable(appender, rentGross, 'double');
  appendNullable(appender, rentNet, 'double');
  appender.appendDouble(livingArea);
  appender.appendDouble(rooms);
  appendNullable(appender, cc === 'BE' ? Math.max(0, Math.round(rooms) - 1) : null, 'int');
  appender.appendInteger(year);
  if (cc === 'CZ') appender.appendBoolean(random.chance(0.65));
  else appender.appendNull();
  appender.appendInteger(active ? w.todayDay - startDay : dom);
  appender.appendDouble(round(pc.latitude + 0.008 * random.normal(), 0.00001));
  appender.appendDouble(round(pc.longitude + 0.012 * random.normal(), 0.00001));
  appender.appendVarchar(pc.id);
  if (pc.level6 === null) appender.appendNull();
  else appender.appendVarchar(pc.level6);
  if (pc.level8 === null) appender.appendNull();
  else appender.appendVarchar(pc.level8);
  appender.appendVarchar(pc.id);
  appender.appendVarchar(`${rooms}-room ${isHouse ? 'house' : 'apartment'} in ${pc.name}`);
  // Floor, furnished, subsidized, old building, balcony, terrace: not generated.
  for (let i = 0; i < 6; i++) appender.appendNull();
  // Street, house number and their keys: not generated (demo offers have no address).
  for (let i = 0; i < 4; i++) appender.appendNull();
  // Land: not generated (the generated prices do not depend on it).
  appender.appendNull();
  appender.endRow();
  w.truth.appendVarchar(cc);
  w.truth.appendVarchar(`demo-${cc.toLowerCase()}-${index}`);
  w.truth.appendDouble(isSale ? trueSale : trueRent);
  w.truth.endRow();
}

const PROJECT_NAMES = ['Residences', 'Park', 'Gardens', 'Quarter', 'Terraces', 'Lofts', 'Court'];

function nearestPostcode(
  postcodes: Postcode[],
  country: CountryCode,
  lat: number,
  lon: number,
): Postcode | undefined {
  let best: Postcode | undefined;
  let bestD = Infinity;
  for (const p of postcodes) {
    // A project's homes are in a postcode people live in.
    if (p.country !== country || !isResidentialPostcode(p)) continue;
    const d =
      (p.latitude - lat) ** 2 + ((p.longitude - lon) * Math.cos((lat * Math.PI) / 180)) ** 2;
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best;
}

function appendProject(
  appender: DuckDBAppender,
  random: Random,
  postcodes: Postcode[],
  index: number,
  todayYear: number,
): void {
  const weights = CITIES.map((c) => c.premium * COUNTRY_SHARE[c.country]);
  const city = CITIES[random.weightedIndex(cumulativeSums(weights))] ?? CITIES[0];
  if (!city) return;
  const lat = round(city.latitude + 0.05 * random.normal(), 0.00001);
  const lon = round(city.longitude + 0.07 * random.normal(), 0.00001);
  const pc = nearestPostcode(postcodes, city.country, lat, lon);
  const start = random.int(2015, todayYear + 2);
  const completion = start + random.int(2, 3);
  const status =
    start > todayYear ? 'planned' : completion < todayYear ? 'completed' : 'under_construction';
  const place = pc?.name ?? city.name;
  appender.appendVarchar(city.country);
  appender.appendVarchar(`demo-project-${city.country.toLowerCase()}-${index}`);
  appender.appendVarchar(
    `${place} ${PROJECT_NAMES[random.int(0, PROJECT_NAMES.length - 1)] ?? 'Residences'}`,
  );
  appender.appendDouble(lat);
  appender.appendDouble(lon);
  if (pc) appender.appendVarchar(pc.id);
  else appender.appendNull();
  appender.appendVarchar(status);
  appender.appendInteger(Math.max(4, Math.round(random.logNormal(45, 0.8))));
  appender.appendInteger(start);
  appender.appendInteger(completion);
  appender.appendBoolean(random.chance(0.92));
  appender.appendBoolean(random.chance(0.3));
  appender.endRow();
}

/** Rows appended between progress updates. */
const BATCH = 50_000;

/**
 * Replaces offers, building projects and the generated places with a deterministic demo market
 * (the same seed gives the same rows). Divisions and imported places are kept.
 */
export async function generateDemoData(
  dataDir: string,
  options: GenerateOptions,
): Promise<GenerateResult> {
  await ensureMarketData(dataDir);
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const todayDay = Math.floor(Date.parse(`${today}T00:00:00Z`) / DAY_MS);
  const todayYear = Number(today.slice(0, 4));
  const progress = options.progress ?? silentProgress;
  return buildSnapshot(dataDir, async (build) => {
    await copyPrevious(build, 'divisions');
    const postcodes = await loadPostcodes(build);
    const areas = await placeAreas(build, postcodes);
    const places = await generatePlaces(build, areas, options.seed, progress);
    const indicators = await generateIndicators(build, areas, options.seed);
    await build.db.run(`insert into snapshot_info values ('places.generated', $text)`, {
      text: `demo data, generated with seed ${String(options.seed)}: ${String(places.pois)} points of interest and ${String(places.stops)} stops with ids starting "${DEMO_ID_PREFIX}", indicators of ${String(indicators.divisions)} divisions (${DEMO_INDICATOR_DIVISIONS_KEY})`,
    });
    const random = new Random(options.seed);

    await build.db.run(`create temp table gen_offers (${OFFER_COLUMNS})`);
    const offers = await build.db.createAppender('gen_offers', 'main', 'temp');
    await build.db.run(`create temp table gen_truth (${OFFER_TRUTH_COLUMNS})`);
    const truth = await build.db.createAppender('gen_truth', 'main', 'temp');
    const writer: OfferWriter = { appender: offers, truth, random, todayDay };
    progress.start('generating offers', options.offers);
    let index = 0;
    for (const cc of COUNTRIES) {
      const inCountry = postcodes.filter((p) => p.country === cc);
      if (inCountry.length === 0) continue;
      const cumulative = cumulativeSums(postcodeWeights(inCountry));
      const share =
        COUNTRIES.indexOf(cc) === COUNTRIES.length - 1
          ? options.offers - index
          : Math.round(options.offers * COUNTRY_SHARE[cc]);
      for (let i = 0; i < share; i++) {
        const pc = inCountry[random.weightedIndex(cumulative)];
        if (pc) appendOffer(writer, pc, index);
        index += 1;
        if (index % BATCH === 0) progress.update(index);
      }
    }
    offers.flushSync();
    offers.closeSync();
    truth.flushSync();
    truth.closeSync();
    progress.update(options.offers);
    progress.stop();

    progress.start('sorting and writing', 1);
    await build.db.run(`insert into offers select * from gen_offers order by ${OFFER_SORT_ORDER}`);
    await build.db.run('insert into offer_truth select * from gen_truth order by country_code, id');
    // The noise of asking prices around true values, by deal type: the part of comparables'
    // spread that is not a difference in value (the model's range leaves it out).
    await build.db.run(`
      insert into snapshot_info
      select 'listing_noise.' || o.deal_type, stddev_samp(ln(coalesce(o.sale_price, o.rent_gross) / t.true_value))::varchar
      from gen_offers o join gen_truth t using (country_code, id)
      where coalesce(o.sale_price, o.rent_gross) > 0 group by o.deal_type`);
    await build.db.run(`create temp table gen_projects (${PROJECT_COLUMNS})`);
    const projects = await build.db.createAppender('gen_projects', 'main', 'temp');
    for (let i = 0; i < options.projects; i++)
      appendProject(projects, random, postcodes, i, todayYear);
    projects.flushSync();
    projects.closeSync();
    await build.db.run('insert into projects select * from gen_projects order by country_code, id');
    progress.update(1);
    progress.stop();
    return { offers: options.offers, projects: options.projects, ...places, ...indicators };
  });
}
