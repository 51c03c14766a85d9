import type { DuckDBConnection } from '@duckdb/node-api';
import type { CountryCode } from '../market/countries.js';
import type { DEAL_TYPES, PROPERTY_TYPES } from '../market/schema.js';

/**
 * The valuation model's contract with the rest of the service. The model is plain functions over
 * a read-only market snapshot; the HTTP features (property tracker, property value) only call
 * `valueProperty` (src/valuation/value-property.ts) with these types.
 */

export type DealType = (typeof DEAL_TYPES)[number];
export type PropertyKind = (typeof PROPERTY_TYPES)[number];
export const CONFIDENCES = ['poor', 'medium', 'good'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export interface PropertyToValue {
  countryCode: CountryCode;
  propertyType: PropertyKind;
  latitude: number;
  longitude: number;
  /** `postcode`: the point is only the centroid of the postcode, not the building. */
  locationPrecision: 'exact' | 'postcode';
  postalCode?: string;
  /** m², > 0 */
  livingArea: number;
  numberOfRooms?: number;
  numberOfBedrooms?: number;
  buildingYear?: number;
  isNew?: boolean;
  floorNumber?: number;
  hasLift?: boolean;
  landArea?: number;
  renovationYear?: number;
  /** Built before 1946 when the year itself is not known (e.g. Vienna's "Altbau"). */
  isOldBuilding?: boolean;
  isFurnished?: boolean;
  /** Cooperative or municipal housing, let below market rents. */
  isSubsidized?: boolean;
  hasBalcony?: boolean;
  hasTerrace?: boolean;
  /** The address, for offers in the same street and building (address-effects.ts). */
  street?: string;
  houseNumber?: string;
}

export interface ValueRange {
  lower: number;
  upper: number;
}

/** One estimate for one deal type: the central value and a range meant to hold it ~2 times in 3. */
export interface Estimate {
  value: number;
  range: ValueRange;
  confidence: Confidence;
  /** What the estimate rests on, for logs, tests and the backtest. */
  evidence: {
    comparables: number;
    area: BasisArea;
    radiusMeters: number | null;
    monthsBack: number;
    /** How far the search had to widen: 0 = nearest ring, higher = wider. */
    widening: number;
  };
}

/** Where the comparables a value rests on were found: around the point, or in a division. */
export const BASIS_AREAS = ['radius', 'postcode', 'municipality', 'district'] as const;
export type BasisArea = (typeof BASIS_AREAS)[number];

/**
 * What a value rests on, for a reader to weigh it: how many comparable offers (each flat
 * advertised again counted once), found where, published within how many months before the date.
 */
export interface ComparablesBasis {
  comparables: number;
  area: BasisArea;
  /** With `area: radius` only. */
  radiusMeters?: number;
  months: number;
}

/** The valuation of a property at a date, shaped like the interface's Valuation (2.4). */
export interface Valuation {
  confidence: Confidence;
  /** The requested deal type's basis (a rent's, not the sale value's). */
  basis: ComparablesBasis;
  coordinates: { latitude: number; longitude: number };
  currency: string;
  /** In the requested deal type: sale price, or monthly gross rent. */
  value: number;
  valueRange: ValueRange;
  salePrice: number;
  salePriceRange: ValueRange;
}

export interface ValuationRequest {
  property: PropertyToValue;
  /** What `value` is: a sale price, or a monthly gross rent. `salePrice` is always the sale value. */
  dealType: DealType;
  /** `YYYY-MM-DD`, not after today: the market as known on that date. */
  date: string;
}

/**
 * Values a property on a read-only market snapshot. Throws `InsufficientDataError` when the
 * data cannot support a value: it never invents one.
 */
export type ValueProperty = (db: DuckDBConnection, request: ValuationRequest) => Promise<Valuation>;
