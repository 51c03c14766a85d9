import type { ServiceDeps } from '../../app-context.js';
import { invalidField } from '../../http/field-errors.js';
import { AppError } from '../../http/problem.js';
import { limits } from '../../limits.js';
import { divisionByKey, findDivisions } from '../../market/queries/divisions.js';
import type { Division, DivisionList, DivisionParams, DivisionQuery } from './schemas.js';

/** What division lookups need: the market data only; the answer is the same for every caller. */
export type DivisionsDeps = Pick<ServiceDeps, 'market'>;

/** A page of the divisions matching the query (its defaults filled in by the schema). */
export async function listDivisions(
  deps: DivisionsDeps,
  query: DivisionQuery,
): Promise<DivisionList> {
  const {
    latitude,
    longitude,
    limit = limits.divisions.defaultPageSize,
    offset = 0,
    ...filter
  } = query;
  if ((latitude === undefined) !== (longitude === undefined)) {
    throw invalidField(
      latitude === undefined ? '/latitude' : '/longitude',
      'is required with the other coordinate',
      { part: 'query', detail: 'latitude and longitude must be given together' },
    );
  }
  const near =
    latitude !== undefined && longitude !== undefined ? { latitude, longitude } : undefined;
  const page = await deps.market.read((db) =>
    findDivisions(db, { ...filter, ...(near ? { near } : {}) }, { limit, offset }),
  );
  return { ...page, limit, offset };
}

/** One division by its key; 404 when the data does not have it. */
export async function getDivision(deps: DivisionsDeps, key: DivisionParams): Promise<Division> {
  const division = await deps.market.read((db) => divisionByKey(db, key));
  if (!division) {
    throw new AppError('not_found', `Division ${key.countryCode}/${key.level}/${key.id} not found`);
  }
  return division;
}
