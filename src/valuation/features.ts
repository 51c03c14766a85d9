import type { DuckDBValue } from '@duckdb/node-api';
import { isoDay } from '../dates.js';
import { booleanOrNull, numberOrNull } from '../market/queries/values.js';
import type { PropertyToValue } from './types.js';

/**
 * The hedonic characteristics the model adjusts for, in one place: how each is computed from an
 * offer row in SQL and in code, and from the property to value. Groups are adjusted for only when
 * the property states them (a property without a building year is not adjusted as if it were
 * old).
 *
 * The SQL computes the regional sums over all offers when a snapshot is built; the comparables of
 * a valuation read the plain columns (FEATURE_COLUMNS) and compute the same values in code, as
 * DuckDB spends about half a millisecond per such expression on every run of a small query
 * (measured at 10 M offers: the comparables query took 10 ms with the expressions, 3.5 ms
 * without). features.test.ts checks that both give the same values over every case of the
 * columns.
 */

/** The offer columns the features are computed from. */
export const FEATURE_COLUMNS = [
  'living_area',
  'start_date',
  'is_new',
  'building_year',
  'is_old_building',
  'number_of_rooms',
  'property_type',
  'floor_number',
  'is_furnished',
  'is_subsidized',
  'has_balcony',
  'has_terrace',
  'land_area',
] as const;

/** Those columns of one offer as code reads them (SQL NULL as null, the start date as a day). */
export interface FeatureRow {
  living_area: number;
  /** `YYYY-MM-DD`. */
  start_date: string;
  is_new: boolean | null;
  building_year: number | null;
  is_old_building: boolean | null;
  number_of_rooms: number | null;
  property_type: string;
  floor_number: number | null;
  is_furnished: boolean | null;
  is_subsidized: boolean | null;
  has_balcony: boolean | null;
  has_terrace: boolean | null;
  land_area: number | null;
}

/** The feature columns of a query's row (a DATE column arrives as a JS Date at midnight UTC). */
export function featureRow(row: Record<string, DuckDBValue>): FeatureRow {
  const start: unknown = row.start_date;
  return {
    living_area: Number(row.living_area),
    start_date: start instanceof Date ? isoDay(start) : String(start),
    is_new: booleanOrNull(row.is_new),
    building_year: numberOrNull(row.building_year),
    is_old_building: booleanOrNull(row.is_old_building),
    number_of_rooms: numberOrNull(row.number_of_rooms),
    property_type: String(row.property_type),
    floor_number: numberOrNull(row.floor_number),
    is_furnished: booleanOrNull(row.is_furnished),
    is_subsidized: booleanOrNull(row.is_subsidized),
    has_balcony: booleanOrNull(row.has_balcony),
    has_terrace: booleanOrNull(row.has_terrace),
    land_area: numberOrNull(row.land_area),
  };
}
export interface Feature {
  name: string;
  /** Columns it is computed from: the property must state all of them. */
  group:
    | 'area'
    | 'age'
    | 'rooms'
    | 'type'
    | 'floor'
    | 'furnished'
    | 'subsidized'
    | 'balcony'
    | 'terrace'
    | 'land';
  /** SQL over an `offers` row; never null. */
  sql: string;
  /** The same value in code, from the row's FEATURE_COLUMNS. */
  ofRow(row: FeatureRow): number;
  /** The property's value at valuation year `year`, or undefined when it does not say. */
  subject(property: PropertyToValue, year: number): number | undefined;
}

/** Reference size of the log-area term: coefficients stay interpretable as "per doubling". */
const REFERENCE_AREA = 70;
/** m² per room of an ordinary flat: `rooms` measures rooms beyond what the size implies. */
const M2_PER_ROOM = 27;
/**
 * Fewer m² per room than this is not a dwelling's room count (listings with 861 rooms on 38 m²
 * exist): such a count says nothing, and its rooms term is neutral (0: as many rooms as the size
 * implies), in code as in SQL.
 */
const MIN_M2_PER_ROOM = 8;

/** The rooms term of a stated, plausible room count (at least one room); 0 otherwise. */
function roomsTerm(rooms: number | null | undefined, livingArea: number): number {
  if (rooms === null || rooms === undefined) return 0;
  const counted = Math.max(rooms, 1);
  return livingArea < counted * MIN_M2_PER_ROOM
    ? 0
    : Math.log((counted * M2_PER_ROOM) / livingArea);
}

/** Whether a house states land of its own. */
function hasLand(propertyType: string, land: number | null | undefined): land is number {
  return propertyType === 'house' && typeof land === 'number' && land > 0;
}

/** A house that does not say whether it has land is not adjusted for it (apartments are: none). */
const landUnstated = (p: PropertyToValue): boolean =>
  p.propertyType === 'house' && p.landArea === undefined;

const isNewSql = 'coalesce(is_new, building_year >= year(start_date) - 1, false)';
const isNewOfRow = (r: FeatureRow): boolean =>
  r.is_new ??
  (r.building_year === null ? false : r.building_year >= Number(r.start_date.slice(0, 4)) - 1);
const isNewSubject = (p: PropertyToValue, year: number): boolean | undefined =>
  p.isNew ??
  (p.buildingYear === undefined
    ? p.isOldBuilding === true
      ? false
      : undefined
    : p.buildingYear >= year - 1);

/** An old building without a year is in the before-1946 class (the reference: all zero). */
function ageClass(p: PropertyToValue, year: number, test: (y: number) => boolean) {
  const isNew = isNewSubject(p, year);
  if (isNew === undefined || p.buildingYear === undefined)
    return isNew === true || p.isOldBuilding === true ? 0 : undefined;
  return !isNew && test(p.buildingYear) ? 1 : 0;
}

/** A yes/no characteristic of its own group: offers that do not say count as "no". */
function flag(
  name: string,
  group: Feature['group'],
  column: 'is_furnished' | 'is_subsidized' | 'has_balcony' | 'has_terrace',
  subject: (p: PropertyToValue) => boolean | undefined,
): Feature {
  return {
    name,
    group,
    sql: `coalesce(${column}, false)::integer`,
    ofRow: (r) => Number(r[column] ?? false),
    subject: (p) => {
      const value = subject(p);
      return value === undefined ? undefined : Number(value);
    },
  };
}

export const FEATURES: readonly Feature[] = [
  {
    name: 'log_area',
    group: 'area',
    sql: `ln(living_area / ${REFERENCE_AREA})`,
    ofRow: (r) => Math.log(r.living_area / REFERENCE_AREA),
    subject: (p) => Math.log(p.livingArea / REFERENCE_AREA),
  },
  {
    // Price per m² is not log-linear in size: the smallest and the largest dwellings cost more
    // per m² than the log-area slope says (Paris sales: +10% under 20 m², +7% over 150 m²).
    name: 'log_area_squared',
    group: 'area',
    sql: `ln(living_area / ${REFERENCE_AREA}) ** 2`,
    ofRow: (r) => Math.log(r.living_area / REFERENCE_AREA) ** 2,
    subject: (p) => Math.log(p.livingArea / REFERENCE_AREA) ** 2,
  },
  {
    name: 'new',
    group: 'age',
    sql: `(${isNewSql})::integer`,
    ofRow: (r) => Number(isNewOfRow(r)),
    subject: (p, year) => {
      const isNew = isNewSubject(p, year);
      return isNew === undefined ? undefined : Number(isNew);
    },
  },
  {
    name: 'built_1991',
    group: 'age',
    sql: `(not ${isNewSql} and coalesce(building_year >= 1991, false))::integer`,
    ofRow: (r) => Number(!isNewOfRow(r) && r.building_year !== null && r.building_year >= 1991),
    subject: (p, year) => ageClass(p, year, (y) => y >= 1991),
  },
  {
    name: 'built_1946',
    group: 'age',
    sql: `(not ${isNewSql} and coalesce(building_year between 1946 and 1990, false))::integer`,
    ofRow: (r) =>
      Number(
        !isNewOfRow(r) &&
          r.building_year !== null &&
          r.building_year >= 1946 &&
          r.building_year <= 1990,
      ),
    subject: (p, year) => ageClass(p, year, (y) => y >= 1946 && y <= 1990),
  },
  {
    name: 'no_year',
    group: 'age',
    sql: `(not ${isNewSql} and building_year is null and not coalesce(is_old_building, false))::integer`,
    ofRow: (r) =>
      Number(!isNewOfRow(r) && r.building_year === null && !(r.is_old_building ?? false)),
    subject: (p, year) => (isNewSubject(p, year) === undefined ? undefined : 0),
  },
  {
    name: 'rooms',
    group: 'rooms',
    // An offer that does not state its rooms, or states an impossible number, is neutral (0: as
    // many rooms as its size implies), not a one-room dwelling of its size. The case is needed:
    // greatest() passes over NULL.
    sql: `coalesce(case when number_of_rooms is not null and living_area >= greatest(number_of_rooms, 1) * ${MIN_M2_PER_ROOM} then ln(greatest(number_of_rooms, 1) * ${M2_PER_ROOM} / living_area) end, 0)`,
    ofRow: (r) => roomsTerm(r.number_of_rooms, r.living_area),
    // A property whose rooms are not given is left to the comparables' own rooms; one whose count
    // is impossible for its size counts as having as many rooms as its size implies.
    subject: (p) =>
      p.numberOfRooms === undefined ? undefined : roomsTerm(p.numberOfRooms, p.livingArea),
  },
  {
    // Comparables share the property's type, so this only keeps houses (larger, cheaper per m²)
    // from biasing the size coefficient fitted on the region's offers of both types.
    name: 'house',
    group: 'type',
    sql: `(property_type = 'house')::integer`,
    ofRow: (r) => Number(r.property_type === 'house'),
    subject: (p) => Number(p.propertyType === 'house'),
  },
  {
    // Higher floors let for more (light, view, less noise); towers' upper floors most.
    name: 'floor',
    group: 'floor',
    sql: 'coalesce(ln(1 + greatest(floor_number, 0)), 0)',
    ofRow: (r) => Math.log(1 + Math.max(r.floor_number ?? 0, 0)),
    subject: (p) =>
      p.floorNumber === undefined ? undefined : Math.log(1 + Math.max(p.floorNumber, 0)),
  },
  {
    name: 'no_floor',
    group: 'floor',
    sql: '(floor_number is null)::integer',
    ofRow: (r) => Number(r.floor_number === null),
    subject: (p) => (p.floorNumber === undefined ? undefined : 0),
  },
  flag('furnished', 'furnished', 'is_furnished', (p) => p.isFurnished),
  flag('subsidized', 'subsidized', 'is_subsidized', (p) => p.isSubsidized),
  flag('balcony', 'balcony', 'has_balcony', (p) => p.hasBalcony),
  flag('terrace', 'terrace', 'has_terrace', (p) => p.hasTerrace),
  {
    // A house's price includes its land (geo-DVF sales: a house on 700 m² against one of the
    // same size on 200 m²). Land per m² of living area, as a log; 0 for apartments, whose parcel
    // is the building's, and for houses without land. Written as a difference of logs: the
    // logarithms of DuckDB and V8 agree on these values to the last bit (features.test.ts).
    name: 'land',
    group: 'land',
    sql: `coalesce(case when property_type = 'house' and land_area > 0 then ln(living_area + land_area) - ln(living_area) end, 0)`,
    ofRow: (r) =>
      hasLand(r.property_type, r.land_area)
        ? Math.log(r.living_area + r.land_area) - Math.log(r.living_area)
        : 0,
    subject: (p) =>
      landUnstated(p)
        ? undefined
        : hasLand(p.propertyType, p.landArea)
          ? Math.log(p.livingArea + p.landArea) - Math.log(p.livingArea)
          : 0,
  },
  {
    // A house sold without land of its own (in DVF, one in a co-ownership) is worth less. An
    // offer of a house that does not state its land counts here too: DVF states the land of every
    // house that has some.
    name: 'no_land',
    group: 'land',
    sql: `(property_type = 'house' and coalesce(land_area, 0) <= 0)::integer`,
    ofRow: (r) => Number(r.property_type === 'house' && !hasLand(r.property_type, r.land_area)),
    subject: (p) =>
      landUnstated(p)
        ? undefined
        : Number(p.propertyType === 'house' && !hasLand(p.propertyType, p.landArea)),
  },
];

export const FEATURE_COUNT = FEATURES.length;
