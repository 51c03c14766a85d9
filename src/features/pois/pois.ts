import type { ServiceDeps } from '../../app-context.js';
import { checkCountry } from '../../http/field-errors.js';
import { POI_CATEGORIES, POI_CATEGORY_NAMES } from '../../market/places/categories.js';
import { poisNear } from '../../market/queries/places.js';
import { checkInCountry } from '../dossiers/validate.js';
import type { PoisRequest, PoisResponse, ValidPoisRequest } from './schemas.js';

export type PoisDeps = Pick<ServiceDeps, 'market' | 'costlyWork'>;

/**
 * The categories a request asks for: in the original interface a point's `category` is the
 * group (`education`) and its `subcategory` the kind (`kindergarten`); each filter given
 * narrows the other. Names the vocabulary does not have match nothing.
 */
function wantedCategories(request: PoisRequest) {
  const groups = request.category ? new Set<string>(request.category) : undefined;
  const kinds = request.subcategory ? new Set<string>(request.subcategory) : undefined;
  return POI_CATEGORY_NAMES.filter(
    (c) => (!groups || groups.has(POI_CATEGORIES[c])) && (!kinds || kinds.has(c)),
  );
}

/**
 * Points of interest around a point from the imported places data (README "Places data"),
 * nearest first: an area without data answers an empty page.
 */
export async function findPois(deps: PoisDeps, request: ValidPoisRequest): Promise<PoisResponse> {
  const countryCode = checkCountry(request.countryCode);
  const categories = wantedCategories(request);
  // Within the deadline of every request's market queries.
  const page = await deps.market.read((db, view) =>
    deps.costlyWork.queries('places', db, view, async (db) => {
      // A point outside the country is a mistake (`400`, as everywhere a point and a country
      // are given), not an area without places.
      await checkInCountry(db, countryCode, request.coordinates, '/coordinates');
      if (categories.length === 0) return { items: [], totalItems: 0 };
      return poisNear(
        db,
        {
          countryCode,
          point: request.coordinates,
          radius: request.radius,
          categories,
        },
        { limit: request.limit, offset: request.offset },
      );
    }),
  );
  return {
    items: page.items.map((p) => ({
      category: POI_CATEGORIES[p.category],
      subcategory: p.category,
      ...(p.name !== null ? { name: p.name } : {}),
      distance: p.distance,
      ...(p.source !== null ? { source: p.source } : {}),
      location: { coordinates: p.coordinates },
    })),
    totalItems: page.totalItems,
  };
}
