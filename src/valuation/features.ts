import type { PropertyToValue } from './types.js';

/**
 * The hedonic characteristics the model adjusts for, in one place: how each is computed from an
 * offer row in SQL and from the property to value. Groups are adjusted for only when the property
 * states them (a property without a building year is not adjusted as if it were old).
 */
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
    | 'terrace';
  /** SQL over an `offers` row; never null. */
  sql: string;
  /** The property's value at valuation year `year`, or undefined when it does not say. */
  subject(property: PropertyToValue, year: number): number | undefined;
}

/** Reference size of the log-area term: coefficients stay interpretable as "per doubling". */
const REFERENCE_AREA = 70;
/** m² per room of an ordinary flat: `rooms` measures rooms beyond what the size implies. */
const M2_PER_ROOM = 27;

const isNewSql = 'coalesce(is_new, building_year >= year(start_date) - 1, false)';
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
  column: string,
  subject: (p: PropertyToValue) => boolean | undefined,
): Feature {
  return {
    name,
    group,
    sql: `coalesce(${column}, false)::integer`,
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
    subject: (p) => Math.log(p.livingArea / REFERENCE_AREA),
  },
  {
    // Price per m² is not log-linear in size: the smallest and the largest dwellings cost more
    // per m² than the log-area slope says (Paris sales: +10% under 20 m², +7% over 150 m²).
    name: 'log_area_squared',
    group: 'area',
    sql: `ln(living_area / ${REFERENCE_AREA}) ** 2`,
    subject: (p) => Math.log(p.livingArea / REFERENCE_AREA) ** 2,
  },
  {
    name: 'new',
    group: 'age',
    sql: `(${isNewSql})::integer`,
    subject: (p, year) => {
      const isNew = isNewSubject(p, year);
      return isNew === undefined ? undefined : Number(isNew);
    },
  },
  {
    name: 'built_1991',
    group: 'age',
    sql: `(not ${isNewSql} and coalesce(building_year >= 1991, false))::integer`,
    subject: (p, year) => ageClass(p, year, (y) => y >= 1991),
  },
  {
    name: 'built_1946',
    group: 'age',
    sql: `(not ${isNewSql} and coalesce(building_year between 1946 and 1990, false))::integer`,
    subject: (p, year) => ageClass(p, year, (y) => y >= 1946 && y <= 1990),
  },
  {
    name: 'no_year',
    group: 'age',
    sql: `(not ${isNewSql} and building_year is null and not coalesce(is_old_building, false))::integer`,
    subject: (p, year) => (isNewSubject(p, year) === undefined ? undefined : 0),
  },
  {
    name: 'rooms',
    group: 'rooms',
    sql: `coalesce(ln(greatest(number_of_rooms, 1) * ${M2_PER_ROOM} / living_area), 0)`,
    subject: (p) =>
      p.numberOfRooms === undefined
        ? undefined
        : Math.log((Math.max(p.numberOfRooms, 1) * M2_PER_ROOM) / p.livingArea),
  },
  {
    // Comparables share the property's type, so this only keeps houses (larger, cheaper per m²)
    // from biasing the size coefficient fitted on the region's offers of both types.
    name: 'house',
    group: 'type',
    sql: `(property_type = 'house')::integer`,
    subject: (p) => Number(p.propertyType === 'house'),
  },
  {
    // Higher floors let for more (light, view, less noise); towers' upper floors most.
    name: 'floor',
    group: 'floor',
    sql: 'coalesce(ln(1 + greatest(floor_number, 0)), 0)',
    subject: (p) =>
      p.floorNumber === undefined ? undefined : Math.log(1 + Math.max(p.floorNumber, 0)),
  },
  {
    name: 'no_floor',
    group: 'floor',
    sql: '(floor_number is null)::integer',
    subject: (p) => (p.floorNumber === undefined ? undefined : 0),
  },
  flag('furnished', 'furnished', 'is_furnished', (p) => p.isFurnished),
  flag('subsidized', 'subsidized', 'is_subsidized', (p) => p.isSubsidized),
  flag('balcony', 'balcony', 'has_balcony', (p) => p.hasBalcony),
  flag('terrace', 'terrace', 'has_terrace', (p) => p.hasTerrace),
];

export const FEATURE_COUNT = FEATURES.length;
