import type { KnownOffer, OfferToValue } from '../../src/valuation/baselines.js';

/**
 * A plain reference written from the definitions, without the grid, the class structure or the
 * shared helpers: every candidate is sorted by distance, every index level looked up by scanning.
 */
export function referenceMedian(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const n = s.length;
  if (n % 2 === 1) return s[(n - 1) / 2] as number;
  return ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2;
}

function quarterKey(date: string): number {
  const year = parseInt(date.substring(0, 4), 10);
  const month = parseInt(date.substring(5, 7), 10);
  return year * 4 + (month <= 3 ? 0 : month <= 6 ? 1 : month <= 9 ? 2 : 3);
}

function distance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const R = 6371008.8;
  const toRad = (d: number) => (d * Math.PI) / 180;
  const h =
    Math.sin(toRad(lat2 - lat1) / 2) ** 2 +
    Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(toRad(lon2 - lon1) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

function referenceIndexLevel(training: KnownOffer[], country: string, quarter: number): number {
  const quarters = [
    ...new Set(training.filter((t) => t.countryCode === country).map((t) => quarterKey(t.date))),
  ].sort((a, b) => a - b);
  // The latest quarter with data not after `quarter`; before the first, the first.
  let chosen = quarters[0] as number;
  for (const q of quarters) if (q <= quarter) chosen = q;
  const values = training
    .filter((t) => t.countryCode === country && quarterKey(t.date) === chosen)
    .map((t) => t.price / t.livingArea);
  return referenceMedian(values);
}

export function referencePostcode(training: KnownOffer[], o: OfferToValue): number | null {
  const values = training
    .filter(
      (t) => t.countryCode === o.countryCode && o.postcode !== null && t.postcode === o.postcode,
    )
    .map((t) => t.price / t.livingArea);
  return values.length === 0 ? null : referenceMedian(values) * o.livingArea;
}

export function referenceNearest(training: KnownOffer[], o: OfferToValue): number | null {
  if (o.latitude === null || o.longitude === null) return null;
  const lat = o.latitude;
  const lon = o.longitude;
  const candidates = training
    .filter(
      (t) =>
        t.countryCode === o.countryCode &&
        t.propertyType === o.propertyType &&
        t.latitude !== null &&
        t.longitude !== null &&
        t.livingArea >= o.livingArea / 1.6 &&
        t.livingArea <= o.livingArea * 1.6,
    )
    .map((t) => ({ t, d: distance(lat, lon, t.latitude as number, t.longitude as number) }))
    .sort((a, b) => (a.d !== b.d ? a.d - b.d : a.t.id < b.t.id ? -1 : 1))
    .slice(0, 10);
  if (candidates.length === 0) return null;
  const target = referenceIndexLevel(training, o.countryCode, quarterKey(o.date));
  const adjusted = candidates.map(
    ({ t }) =>
      ((t.price / t.livingArea) * target) /
      referenceIndexLevel(training, t.countryCode, quarterKey(t.date)),
  );
  return referenceMedian(adjusted) * o.livingArea;
}
