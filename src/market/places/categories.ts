/**
 * The points-of-interest vocabulary: every category a POI may have, and the report group it
 * belongs to (README "Places data" shows this table). An import refuses other categories, with
 * this list, so that a typo never creates a category no report shows.
 */
export const POI_GROUPS = ['health', 'leisure', 'catering', 'shopping', 'education'] as const;
export type PoiGroup = (typeof POI_GROUPS)[number];

export const POI_CATEGORIES = {
  // health
  pharmacy: 'health',
  doctor: 'health',
  dentist: 'health',
  hospital: 'health',
  // education
  kindergarten: 'education',
  school: 'education',
  university: 'education',
  // leisure
  park: 'leisure',
  playground: 'leisure',
  sport_facility: 'leisure',
  sports_centre: 'leisure',
  pitch: 'leisure',
  fitness_centre: 'leisure',
  fitness_station: 'leisure',
  swimming_venue: 'leisure',
  museum: 'leisure',
  theatre: 'leisure',
  cinema: 'leisure',
  // catering
  restaurant: 'catering',
  cafe: 'catering',
  bar: 'catering',
  pub: 'catering',
  biergarten: 'catering',
  nightclub: 'catering',
  // shopping
  market: 'shopping',
  supermarket: 'shopping',
  bakery: 'shopping',
  convenience: 'shopping',
  shopping_centre: 'shopping',
} as const satisfies Record<string, PoiGroup>;
export type PoiCategory = keyof typeof POI_CATEGORIES;

export const POI_CATEGORY_NAMES = Object.keys(POI_CATEGORIES) as PoiCategory[];

/** How a transit stop is served, when the data says. */
export const TRANSIT_MODES = ['subway', 'tram', 'bus', 'rail', 'ferry', 'other'] as const;
