import { checkCountry } from '../../http/field-errors.js';
import type { PoisRequest, PoisResponse } from './schemas.js';

/**
 * Points of interest around a point. The market data holds no places yet, so every area is an
 * area without data: the answer is an empty page, in the shape clients read, after the request
 * is checked as it will be once places exist (country, coordinates, radius, paging).
 */
export function findPois(request: PoisRequest): PoisResponse {
  checkCountry(request.countryCode);
  return { items: [], totalItems: 0 };
}
