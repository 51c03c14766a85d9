import type { DuckDBConnection } from '@duckdb/node-api';
import { latestOfferPointsNear } from '../../market/queries/offers.js';
import { InsufficientDataError } from '../../valuation/errors.js';
import type { Confidence, ValueProperty } from '../../valuation/types.js';
import type { Dossier } from '../dossiers/dossier.js';
import { toPropertyToValue } from '../valuation/property-input.js';
import { monthlyDates } from '../valuation/dossier-valuation.js';

/** Radius of the map of nearby offers, meters; and offers drawn at most. */
export const MAP_RADIUS_M = 1000;
const MAP_MAX_OFFERS = 300;
const TREND_MONTHS = 12;
/** Valuations a page makes: today's and one per month of the trend. */
export const PAGE_VALUATIONS = 1 + TREND_MONTHS;

export interface Point {
  latitude: number;
  longitude: number;
}

export interface PageData {
  dossier: Dossier;
  currency: string;
  valuation: { value: number; lower: number; upper: number; confidence: Confidence } | null;
  offers: Point[];
  /** The first day of each of the last 12 months, then today. */
  trend: { date: string; value: number }[];
}

/** Offers of the dossier's deal and property type within `MAP_RADIUS_M`, the latest first. */
async function offersAround(db: DuckDBConnection, dossier: Dossier): Promise<Point[]> {
  const propertyType = dossier.content.property.propertyType.code;
  // Offers are of apartments and houses only: other kinds have none to show.
  if (propertyType !== 'apartment' && propertyType !== 'house') return [];
  return latestOfferPointsNear(
    db,
    {
      countryCode: dossier.countryCode,
      dealType: dossier.content.dealType,
      propertyType,
      point: dossier.content.property.location.coordinates,
      radius: MAP_RADIUS_M,
    },
    MAP_MAX_OFFERS,
  );
}

/** What the shared page shows of a dossier: its valuation today, offers around, a trend. */
export async function pageData(
  db: DuckDBConnection,
  valueProperty: ValueProperty,
  dossier: Dossier,
  today: string,
  currency: string,
): Promise<PageData> {
  const dealType = dossier.content.dealType;
  const valueAt = async (date: string) => {
    try {
      const property = toPropertyToValue(dossier.countryCode, dossier.content.property);
      return await valueProperty(db, { property, dealType, date });
    } catch (error) {
      if (error instanceof InsufficientDataError) return undefined;
      throw error;
    }
  };
  const now = await valueAt(today);
  const trend: PageData['trend'] = [];
  for (const date of monthlyDates(today, TREND_MONTHS)) {
    const v = await valueAt(date);
    if (v) trend.push({ date, value: v.value });
  }
  // The line ends at today's estimate, the one the page shows above it.
  if (now && today !== trend.at(-1)?.date) trend.push({ date: today, value: now.value });
  return {
    dossier,
    currency: now?.currency ?? currency,
    valuation: now
      ? {
          value: now.value,
          lower: now.valueRange.lower,
          upper: now.valueRange.upper,
          confidence: now.confidence,
        }
      : null,
    offers: await offersAround(db, dossier),
    trend,
  };
}
