import { snapshotMemo } from '../snapshot-memo.js';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { MAIN_CURRENCY, type CountryCode } from '../countries.js';
import { queryPrepared, type Row } from '../duck.js';
import { DISTANCE_SQL, withinRadius } from '../geo.js';
import type { DEAL_TYPES, PROPERTY_TYPES } from '../schema.js';
import { PRICE_COLUMN } from './offer-columns.js';
import { areaConditions, areaTable, type Area } from './offer-area.js';
import { booleanOrNull, numberOf, numberOrNull, pointOrNull, textOrNull } from './values.js';

type DealType = (typeof DEAL_TYPES)[number];
type PropertyType = (typeof PROPERTY_TYPES)[number];

/** Offers of one deal and property type in an area, published from `from` to `to` (included). */
export interface OfferSearch {
  countryCode: CountryCode;
  dealType: DealType;
  propertyType: PropertyType;
  area: Area;
  /** `YYYY-MM-DD`, both included. */
  from: string;
  to: string;
}

/** One offer as the API shows it. */
export interface MarketOffer {
  id: string;
  dealType: DealType;
  propertyType: PropertyType;
  coordinates: { latitude: number; longitude: number } | null;
  postalCode: string | null;
  /** Meters from the search point, rounded. */
  distance: number | null;
  startDate: string;
  endDate: string | null;
  isActive: boolean;
  isNew: boolean | null;
  isPrivate: boolean | null;
  /** Sale price, or monthly gross rent. */
  price: number | null;
  pricePerSquareMeter: number | null;
  currency: string;
  livingArea: number | null;
  numberOfRooms: number | null;
  buildingYear: number | null;
  daysOnMarket: number | null;
}

/** The search's conditions on the offers; every value is a bound parameter. */
function offerConditions(search: OfferSearch, params: Record<string, DuckDBValue>): string[] {
  params.from = search.from;
  params.to = search.to;
  return [...placeConditions(search, params), 'start_date between $from::date and $to::date'];
}

/** The search's conditions but its dates. */
function placeConditions(
  search: Omit<OfferSearch, 'from' | 'to'>,
  params: Record<string, DuckDBValue>,
): string[] {
  params.country = search.countryCode;
  params.deal = search.dealType;
  params.kind = search.propertyType;
  return [
    'country_code = $country',
    'deal_type = $deal',
    'property_type = $kind',
    ...areaConditions(search.area, params),
  ];
}

function toOffer(row: Row, currency: string): MarketOffer {
  const price = numberOrNull(row.price);
  const area = numberOrNull(row.living_area);
  const distance = numberOrNull(row.distance);
  return {
    id: String(row.id),
    dealType: String(row.deal_type) as DealType,
    propertyType: String(row.property_type) as PropertyType,
    coordinates: pointOrNull(row.latitude, row.longitude),
    postalCode: textOrNull(row.postal_code),
    distance: distance === null ? null : Math.round(distance),
    startDate: String(row.start_date),
    endDate: textOrNull(row.end_date),
    isActive: Boolean(row.is_active),
    isNew: booleanOrNull(row.is_new),
    isPrivate: booleanOrNull(row.is_private),
    price,
    pricePerSquareMeter: price !== null && area !== null && area > 0 ? price / area : null,
    currency,
    livingArea: area,
    numberOfRooms: numberOrNull(row.number_of_rooms),
    buildingYear: numberOrNull(row.building_year),
    daysOnMarket: numberOrNull(row.days_on_market),
  };
}

/**
 * Offers of the search, nearest to the area's point first, then newest (then by id); at most
 * `limit`, all counted. The distance is given in postcode areas too.
 */
export async function nearestOffers(
  db: DuckDBConnection,
  search: OfferSearch,
  limit: number,
): Promise<{ items: MarketOffer[]; totalItems: number }> {
  const params: Record<string, DuckDBValue> = { limit };
  const where = offerConditions(search, params);
  params.lat = search.area.point.latitude;
  params.lon = search.area.point.longitude;
  const rows = await queryPrepared(
    db,
    `select id, deal_type, property_type, latitude, longitude, postal_code,
       ${DISTANCE_SQL} as distance,
       strftime(start_date, '%Y-%m-%d') as start_date, strftime(end_date, '%Y-%m-%d') as end_date,
       is_active, is_new, is_private, ${PRICE_COLUMN[search.dealType]} as price, living_area,
       number_of_rooms, building_year, days_on_market,
       (count(*) over ())::integer as total
     from ${areaTable(search.area)}
     where ${where.join(' and ')}
     order by distance asc nulls last, start_date desc, id
     limit $limit`,
    params,
  );
  const currency = MAIN_CURRENCY[search.countryCode];
  return { items: rows.map((r) => toOffer(r, currency)), totalItems: numberOf(rows[0]?.total) };
}

/** An offer's start date and price per m². */
export interface OfferPrice {
  startDate: string;
  pricePerSquareMeter: number;
}

/**
 * The start date and price per m² of every offer of the search with a price and a living area,
 * oldest first: the figures over all the offers a search counts, where `nearestOffers` lists the
 * nearest few. Two numbers an offer, so even tens of thousands are small.
 */
export async function offerPrices(
  db: DuckDBConnection,
  search: OfferSearch,
): Promise<OfferPrice[]> {
  const params: Record<string, DuckDBValue> = {};
  const where = offerConditions(search, params);
  const price = PRICE_COLUMN[search.dealType];
  const rows = await queryPrepared(
    db,
    `select strftime(start_date, '%Y-%m-%d') as start_date, ${price} / living_area as per_sqm
     from ${areaTable(search.area)}
     where ${where.join(' and ')} and ${price} is not null and living_area > 0
     order by start_date, id`,
    params,
  );
  return rows.map((r) => ({
    startDate: String(r.start_date),
    pricePerSquareMeter: numberOf(r.per_sqm),
  }));
}

/**
 * Per period (`YYYY-MM-DD`, both included), the number of offers of the search published in it
 * with a price and a living area within `livingArea`, and their mean price per m² (undefined
 * without offers). One query for all periods: the area's offers are read once.
 */
export async function meanPricePerSquareMeter(
  db: DuckDBConnection,
  search: Omit<OfferSearch, 'from' | 'to'>,
  livingArea: { min: number; max: number },
  periods: readonly { from: string; to: string }[],
): Promise<{ count: number; mean?: number }[]> {
  const params: Record<string, DuckDBValue> = { areaMin: livingArea.min, areaMax: livingArea.max };
  const where = placeConditions(search, params);
  const price = PRICE_COLUMN[search.dealType];
  const inPeriod = periods.map((period, i) => {
    params[`from${String(i)}`] = period.from;
    params[`to${String(i)}`] = period.to;
    return `start_date between $from${String(i)}::date and $to${String(i)}::date`;
  });
  const [row] = await queryPrepared(
    db,
    `select ${inPeriod
      .map(
        (period, i) =>
          `count(*) filter (where ${period})::integer as n${String(i)},
           avg(${price} / living_area) filter (where ${period}) as mean${String(i)}`,
      )
      .join(', ')}
     from ${areaTable(search.area)}
     where ${where.join(' and ')} and (${inPeriod.join(' or ')})
       and living_area between $areaMin and $areaMax and ${price} is not null`,
    params,
  );
  return periods.map((_, i) => {
    const count = numberOf(row?.[`n${String(i)}`]);
    return count > 0 ? { count, mean: Number(row?.[`mean${String(i)}`]) } : { count };
  });
}

/**
 * The points of the latest offers of a deal and property type within `radius` meters of a
 * point (newest first, then by id); at most `limit`.
 */
export async function latestOfferPointsNear(
  db: DuckDBConnection,
  search: {
    countryCode: CountryCode;
    dealType: DealType;
    propertyType: PropertyType;
    point: { latitude: number; longitude: number };
    radius: number;
  },
  limit: number,
): Promise<{ latitude: number; longitude: number }[]> {
  const params: Record<string, DuckDBValue> = {
    country: search.countryCode,
    deal: search.dealType,
    kind: search.propertyType,
    limit,
  };
  const where = [
    'country_code = $country',
    'deal_type = $deal',
    'property_type = $kind',
    ...withinRadius(search.point, search.radius, params),
  ];
  const rows = await queryPrepared(
    db,
    `select latitude, longitude from offers_by_place where ${where.join(' and ')}
     order by start_date desc, id limit $limit`,
    params,
  );
  return rows.flatMap((r) => pointOrNull(r.latitude, r.longitude) ?? []);
}

/**
 * The median share of the gross rent that is net rent, and the number of rent offers it is
 * measured on: those stating both, with net ≤ gross (else the fields were swapped at the
 * source), in the country or, given a postcode, in the postcode's level-6 region.
 */
export function netRentShare(
  db: DuckDBConnection,
  countryCode: CountryCode,
  postcode?: string,
): Promise<{ median: number | null; offers: number }> {
  // A median over a region's or a country's rents: at 10 M offers tens of milliseconds that
  // every rent valuation would pay again; the answer depends on the snapshot alone.
  return netRentShares(db, `${countryCode}|${postcode ?? ''}`, () =>
    queryNetRentShare(db, countryCode, postcode),
  );
}

const netRentShares = snapshotMemo<{ median: number | null; offers: number }>();

async function queryNetRentShare(
  db: DuckDBConnection,
  countryCode: CountryCode,
  postcode?: string,
): Promise<{ median: number | null; offers: number }> {
  const params: Record<string, DuckDBValue> = { country: countryCode };
  let region = '';
  if (postcode !== undefined) {
    params.postcode = postcode;
    region = `and division_level6 = (select level6_id from divisions
      where country_code = $country and level = 100 and id = $postcode)`;
  }
  const [row] = await queryPrepared(
    db,
    `select median(rent_net / rent_gross) as ratio, count(*)::integer as n from offers
     where country_code = $country and deal_type = 'rent'
       and rent_gross > 0 and rent_net > 0 and rent_net <= rent_gross ${region}`,
    params,
  );
  return { median: numberOrNull(row?.ratio), offers: numberOf(row?.n) };
}
