/**
 * Tables of a market snapshot. Offers are stored physically sorted by
 * (country, level-6, level-8, start month): division queries then read a few contiguous row
 * groups, which DuckDB's zone maps find without an index (measured 5x faster).
 */
export const OFFER_COLUMNS = `
  country_code VARCHAR NOT NULL,
  id VARCHAR NOT NULL,
  deal_type VARCHAR NOT NULL,
  property_type VARCHAR NOT NULL,
  start_date DATE NOT NULL,
  end_date DATE,
  is_active BOOLEAN NOT NULL,
  is_new BOOLEAN,
  is_private BOOLEAN,
  sale_price DOUBLE,
  rent_gross DOUBLE,
  rent_net DOUBLE,
  living_area DOUBLE,
  number_of_rooms DOUBLE,
  number_of_bedrooms INTEGER,
  building_year INTEGER,
  has_open_kitchen BOOLEAN,
  days_on_market INTEGER,
  latitude DOUBLE,
  longitude DOUBLE,
  postal_code VARCHAR,
  division_level6 VARCHAR,
  division_level8 VARCHAR,
  division_level100 VARCHAR,
  title VARCHAR,
  floor_number INTEGER,
  is_furnished BOOLEAN,
  is_subsidized BOOLEAN,
  is_old_building BOOLEAN,
  has_balcony BOOLEAN,
  has_terrace BOOLEAN,
  street VARCHAR,
  house_number VARCHAR,
  street_key VARCHAR,
  house_key VARCHAR,
  land_area DOUBLE`;

export const OFFER_SORT_ORDER =
  "country_code, division_level6, division_level8, date_trunc('month', start_date), id";

export const PROJECT_COLUMNS = `
  country_code VARCHAR NOT NULL,
  id VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  latitude DOUBLE NOT NULL,
  longitude DOUBLE NOT NULL,
  postal_code VARCHAR,
  status VARCHAR NOT NULL,
  number_of_units INTEGER,
  construction_start_year INTEGER,
  completion_year INTEGER,
  is_residential BOOLEAN NOT NULL,
  is_commercial BOOLEAN NOT NULL`;

export const DIVISION_COLUMNS = `
  country_code VARCHAR NOT NULL,
  level INTEGER NOT NULL,
  id VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  level6_id VARCHAR,
  level8_id VARCHAR,
  latitude DOUBLE,
  longitude DOUBLE`;

export const PROJECT_STATUSES = ['planned', 'under_construction', 'completed'] as const;
export const DEAL_TYPES = ['sale', 'rent'] as const;
export const PROPERTY_TYPES = ['apartment', 'house'] as const;

/**
 * The true value behind each demo offer (the generator draws the asking price around it): the
 * backtest measures the model against it. Only `generate` writes it; an offers import empties it
 * (the truth would no longer cover the offers), other imports keep it.
 */
export const OFFER_TRUTH_COLUMNS = `
  country_code VARCHAR NOT NULL,
  id VARCHAR NOT NULL,
  true_value DOUBLE NOT NULL`;

/**
 * The offers again, ordered by place instead of by division: by country, deal and property type,
 * then 0.05° latitude bands (about 5.5 km) and longitude. A search around a point ("offers
 * within 1 km") then touches only the few row groups of its bands, as DuckDB skips the others
 * by their latitude and longitude ranges. Offers at one point follow by id: a search orders
 * offers at the same distance by their row, so every build of the same offers must give the same
 * rows (a parallel sort keeps no order among equal keys). Built from `offers` as the last step
 * of every snapshot.
 */
export const PLACE_INDEX_SQL = `
  create table offers_by_place as
  select * from offers where latitude is not null and longitude is not null
  order by country_code, deal_type, property_type, floor(latitude * 20), longitude, latitude, id`;

/**
 * Points of interest (places data), with a category of places/categories.ts. `source` (on the
 * three places tables) is the attribution its licence asks for, printed wherever a row is shown.
 */
export const POI_COLUMNS = `
  country_code VARCHAR NOT NULL,
  id VARCHAR NOT NULL,
  category VARCHAR NOT NULL,
  subcategory VARCHAR,
  name VARCHAR,
  latitude DOUBLE NOT NULL,
  longitude DOUBLE NOT NULL,
  source VARCHAR`;

/** Public transport stops (places data). */
export const TRANSIT_STOP_COLUMNS = `
  country_code VARCHAR NOT NULL,
  id VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  mode VARCHAR,
  latitude DOUBLE NOT NULL,
  longitude DOUBLE NOT NULL,
  source VARCHAR`;

/** Indicators of an area (population, income…), each for one division, indicator and year. */
export const INDICATOR_COLUMNS = `
  country_code VARCHAR NOT NULL,
  level INTEGER NOT NULL,
  division_id VARCHAR NOT NULL,
  indicator VARCHAR NOT NULL,
  year INTEGER NOT NULL,
  value DOUBLE NOT NULL,
  unit VARCHAR,
  source VARCHAR`;

/** Creates the empty tables of a new snapshot. */
export const CREATE_TABLES = `
  create table offers (${OFFER_COLUMNS});
  create table projects (${PROJECT_COLUMNS});
  create table divisions (${DIVISION_COLUMNS});
  create table snapshot_info (key VARCHAR PRIMARY KEY, value VARCHAR);
  create table offer_truth (${OFFER_TRUTH_COLUMNS});
  create table pois (${POI_COLUMNS});
  create table transit_stops (${TRANSIT_STOP_COLUMNS});
  create table indicators (${INDICATOR_COLUMNS});`;
