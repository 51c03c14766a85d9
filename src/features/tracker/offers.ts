import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { queryPrepared, type Row } from '../../market/duck.js';
import { DISTANCE_SQL } from '../../market/geo.js';
import { MAIN_CURRENCY, type CountryCode } from '../../market/countries.js';
import type { DealType, PropertyKind } from '../../valuation/types.js';
import { areaConditions, areaTable, type Area } from './area.js';
import type { OfferItem } from './schemas.js';

export interface OfferSearch {
  countryCode: CountryCode;
  dealType: DealType;
  propertyType: PropertyKind;
  area: Area;
  /** Published (start date) from `from` to `to`, both included, `YYYY-MM-DD`. */
  from: string;
  to: string;
  limit: number;
}

/** The price of an offer in a deal type: sale price, or monthly gross rent. */
export const PRICE_SQL: Record<DealType, string> = { sale: 'sale_price', rent: 'rent_gross' };

/** The offers' common conditions; every value is a bound parameter. */
export function offerConditions(
  search: Omit<OfferSearch, 'limit'>,
  params: Record<string, DuckDBValue>,
): string[] {
  params.country = search.countryCode;
  params.deal = search.dealType;
  params.kind = search.propertyType;
  params.from = search.from;
  params.to = search.to;
  return [
    'country_code = $country',
    'deal_type = $deal',
    'property_type = $kind',
    'start_date between $from::date and $to::date',
    ...areaConditions(search.area, params),
  ];
}

const num = (v: DuckDBValue | undefined): number | null =>
  v === null || v === undefined ? null : Number(v);
const bool = (v: DuckDBValue | undefined): boolean | null =>
  v === null || v === undefined ? null : Boolean(v);

function toItem(row: Row, currency: string): OfferItem {
  const price = num(row.price);
  const area = num(row.living_area);
  return {
    id: String(row.id),
    dealType: String(row.deal_type) as DealType,
    propertyType: String(row.property_type) as PropertyKind,
    coordinates:
      row.latitude === null || row.longitude === null
        ? null
        : { latitude: Number(row.latitude), longitude: Number(row.longitude) },
    postalCode: row.postal_code === null ? null : String(row.postal_code),
    distance: row.distance === null ? null : Math.round(Number(row.distance)),
    startDate: String(row.start_date),
    endDate: row.end_date === null ? null : String(row.end_date),
    isActive: Boolean(row.is_active),
    isNew: bool(row.is_new),
    isPrivate: bool(row.is_private),
    price,
    pricePerSquareMeter: price !== null && area !== null && area > 0 ? price / area : null,
    currency,
    livingArea: area,
    numberOfRooms: num(row.number_of_rooms),
    buildingYear: num(row.building_year),
    daysOnMarket: Number(row.days_on_market),
  };
}

/** Offers in the area, nearest first, then newest (then by id); at most `limit`, all counted. */
export async function findOffers(
  db: DuckDBConnection,
  search: OfferSearch,
): Promise<{ items: OfferItem[]; totalItems: number }> {
  const params: Record<string, DuckDBValue> = { limit: search.limit };
  const where = offerConditions(search, params);
  // The distance is shown in postcode mode too.
  params.lat = search.area.point.latitude;
  params.lon = search.area.point.longitude;
  const rows = await queryPrepared(
    db,
    `select id, deal_type, property_type, latitude, longitude, postal_code,
       ${DISTANCE_SQL} as distance,
       strftime(start_date, '%Y-%m-%d') as start_date, strftime(end_date, '%Y-%m-%d') as end_date,
       is_active, is_new, is_private, ${PRICE_SQL[search.dealType]} as price, living_area,
       number_of_rooms, building_year, days_on_market,
       (count(*) over ())::integer as total
     from ${areaTable(search.area)}
     where ${where.join(' and ')}
     order by distance asc nulls last, start_date desc, id
     limit $limit`,
    params,
  );
  const currency = MAIN_CURRENCY[search.countryCode];
  return { items: rows.map((r) => toItem(r, currency)), totalItems: Number(rows[0]?.total ?? 0) };
}
