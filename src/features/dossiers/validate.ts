import type { DuckDBConnection } from '@duckdb/node-api';
import {
  checkCountry,
  describeFieldErrors,
  invalidField,
  invalidFields,
} from '../../http/field-errors.js';
import type { FieldError } from '../../http/problem.js';
import { describeValidation, validatorCompiler } from '../../http/validation.js';
import type { CountryCode } from '../../market/countries.js';
import type { Dossier, DossierContent, DossierProperty } from './dossier.js';
import { limits } from '../../limits.js';
import { nearCountry, postcodeCentroid } from '../../market/queries/divisions.js';
import { haversineMeters } from '../../market/geo.js';
import { DossierBody } from './schemas.js';

/** Rules between fields that the schema cannot say. */
function checkPropertyRules(property: DossierProperty, path: string): void {
  const { buildingYear, renovationYear } = property;
  if (buildingYear !== undefined && renovationYear !== undefined && renovationYear < buildingYear) {
    throw invalidField(
      `${path}/renovationYear`,
      `must not be before buildingYear (${String(buildingYear)})`,
    );
  }
}

export type ResolvedProperty = Dossier['content']['property'];

/**
 * Refuses coordinates of a request that lie outside its country (`nearCountry`, within
 * `limits.dossiers.countryReachKm`): a point abroad or at sea would otherwise be answered with
 * the nearest postcode of the country, hundreds of kilometres away.
 */
export async function checkInCountry(
  db: DuckDBConnection,
  countryCode: CountryCode,
  point: { latitude: number; longitude: number },
  path: string,
): Promise<void> {
  const reach = limits.dossiers.countryReachKm;
  if ((await nearCountry(db, countryCode, point, reach)) === false) {
    throw invalidField(
      path,
      `lie outside ${countryCode}: no postcode of ${countryCode} is within ${String(reach)} km`,
    );
  }
}

/**
 * Gives the property its point: the coordinates given, or the centroid of its postcode (then
 * `precision` is `postcode`). `precision: 'postcode'` asks for the centroid even when
 * coordinates are present, so that a dossier read and written back stays postcode-precise.
 */
export async function resolveProperty(
  db: DuckDBConnection,
  countryCode: CountryCode,
  property: DossierProperty,
  path = '/property',
): Promise<ResolvedProperty> {
  checkPropertyRules(property, path);
  // A postcode sent as a number (`8037`) is kept as the text it stands for.
  const given = property.location.address?.postCode;
  const postCode = given === undefined ? undefined : String(given);
  const location =
    postCode === undefined
      ? property.location
      : { ...property.location, address: { ...property.location.address, postCode } };
  property = { ...property, location };
  if (location.coordinates && location.precision !== 'postcode') {
    await checkInCountry(db, countryCode, location.coordinates, `${path}/location/coordinates`);
    if (postCode !== undefined) {
      await checkPostcodeNear(db, countryCode, postCode, location.coordinates, path);
    }
    return {
      ...property,
      location: { ...location, coordinates: location.coordinates, precision: 'coordinates' },
    };
  }
  if (postCode === undefined) {
    throw invalidField(
      `${path}/location/coordinates`,
      location.precision === 'postcode'
        ? 'cannot be derived: precision "postcode" needs address.postCode'
        : 'is required unless address.postCode is given',
    );
  }
  const centroid = await postcodeCentroid(db, countryCode, postCode);
  if (!centroid) {
    throw invalidField(
      `${path}/location/address/postCode`,
      `${JSON.stringify(postCode)} is not a postcode known for ${countryCode}; give coordinates`,
    );
  }
  return { ...property, location: { ...location, coordinates: centroid, precision: 'postcode' } };
}

/**
 * A stated postcode must lie near the stated point: the valuation takes the postcode's market
 * where one is stated, so a Vienna point with a Graz postcode was valued (or refused) as a
 * flat in Graz. A postcode the data does not know passes (the point decides then).
 */
async function checkPostcodeNear(
  db: DuckDBConnection,
  countryCode: CountryCode,
  postCode: string,
  point: { latitude: number; longitude: number },
  path: string,
): Promise<void> {
  const centroid = await postcodeCentroid(db, countryCode, postCode);
  if (!centroid) return;
  const km =
    haversineMeters(point.latitude, point.longitude, centroid.latitude, centroid.longitude) / 1000;
  const most = limits.dossiers.postcodeDistanceKm;
  if (km > most) {
    throw invalidField(
      `${path}/location/address/postCode`,
      `${JSON.stringify(postCode)} is centred ${km.toFixed(0)} km from the coordinates; a ` +
        `postcode more than ${String(most)} km from its point is taken for a mistake in one of them`,
    );
  }
}

/** Checks a whole content (schema already passed) and resolves its location. */
export async function resolveContent(
  db: DuckDBConnection,
  content: DossierContent,
): Promise<{ countryCode: CountryCode; content: Dossier['content'] }> {
  const countryCode = checkCountry(content.countryCode);
  const property = await resolveProperty(db, countryCode, content.property);
  return { countryCode, content: { ...content, countryCode, property } };
}

const checkBody = validatorCompiler({
  schema: DossierBody,
  httpPart: 'body',
  method: 'PATCH',
  url: '/api/v1/dossiers/:id',
}) as ((data: unknown) => boolean) & { errors?: Parameters<typeof describeValidation>[0] | null };

/** Validates the result of a merge patch as a whole body, naming fields as in the body. */
export function checkMergedBody(
  merged: unknown,
  /** Refusals of the patch itself (its read-only members), listed after the body's own. */
  alsoRefused: readonly FieldError[] = [],
): DossierContent {
  const valid = checkBody(merged);
  if (valid && alsoRefused.length === 0) return merged as DossierContent;
  if (valid) throw invalidFields(alsoRefused);
  const { detail, errors } = describeValidation(checkBody.errors ?? [], 'body');
  // The patch's own refusals are not "after the merge": said apart, after the body's.
  const own = alsoRefused.length > 0 ? `; ${describeFieldErrors(alsoRefused).detail}` : '';
  throw invalidFields([...errors, ...alsoRefused], {
    detail: `after the merge patch: ${detail}${own}`,
  });
}
