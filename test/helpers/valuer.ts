import { MAIN_CURRENCY } from '../../src/market/countries.js';
import type { ValuationRequest, ValueProperty } from '../../src/valuation/types.js';

/**
 * A deterministic stand-in for the valuation model, to test how features shape, round and pass
 * valuations through, never the model itself: the sale value is living area × the price per m²
 * given for the date (or `perSquareMeter`), the rent 1/300 of it, ranges ±10%,
 * resting on 12 offers within 500 m. It records the
 * requests it was asked.
 */
export function fixedValuer(
  byDate: Record<string, number> = {},
  perSquareMeter = 5000,
): ValueProperty & { requests: ValuationRequest[] } {
  const requests: ValuationRequest[] = [];
  const valuer = (_db: unknown, request: ValuationRequest) => {
    requests.push(request);
    const { property } = request;
    const salePrice = property.livingArea * (byDate[request.date] ?? perSquareMeter);
    const value = request.dealType === 'sale' ? salePrice : salePrice / 300;
    return Promise.resolve({
      confidence: 'medium' as const,
      basis: { comparables: 12, area: 'radius' as const, radiusMeters: 500, months: 24 },
      coordinates: { latitude: property.latitude, longitude: property.longitude },
      currency: MAIN_CURRENCY[property.countryCode],
      value,
      valueRange: { lower: value * 0.9, upper: value * 1.1 },
      salePrice,
      salePriceRange: { lower: salePrice * 0.9, upper: salePrice * 1.1 },
    });
  };
  return Object.assign(valuer, { requests });
}
