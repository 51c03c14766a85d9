import type { DuckDBConnection } from '@duckdb/node-api';
import { limits } from '../../limits.js';
import type { CountryCode } from '../../market/countries.js';
import { scoreLocation } from '../../market/places/scores.js';
import { indicatorsAround } from '../../market/queries/indicators.js';
import { nearestPoisByCategory, nearestStops } from '../../market/queries/surroundings.js';
import type { Section } from '../templates/schemas.js';
import type { ReportPlaces } from './model.js';

/** The sections that show places data (`environment` has none to show: see its renderer). */
const PLACES_SECTIONS = new Set(['amenities', 'accessibility', 'socio']);

export const showsPlaces = (sections: Section[]): boolean =>
  sections.some((s) => s.enabled && PLACES_SECTIONS.has(s.type));

/**
 * The places data around a point as of the valuation date's year (indicators of later years
 * are left out), from one snapshot; the indicators of the stated postcode where there is one.
 */
export async function placesAround(
  db: DuckDBConnection,
  countryCode: CountryCode,
  point: { latitude: number; longitude: number },
  postcode: string | undefined,
  valuationDate: string,
): Promise<ReportPlaces> {
  const around = { countryCode, point, radius: limits.places.coverageRadius };
  const scores = await scoreLocation(db, countryCode, point);
  const amenities = await nearestPoisByCategory(db, around, limits.places.reportPlacesPerGroup);
  const stops = await nearestStops(db, around, limits.places.reportStops);
  const { area, indicators } = await indicatorsAround(db, {
    countryCode,
    point,
    postcode,
    year: Number(valuationDate.slice(0, 4)),
  });
  return { scores, amenities, stops, area, indicators };
}
