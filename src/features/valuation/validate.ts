import { invalidField } from '../../http/field-errors.js';
import { isRecord } from '../../http/is-record.js';
import type { DossierProperty } from '../dossiers/dossier.js';
import type { ValuationInput } from './schemas.js';

/**
 * A valuation input once it is known which one it is; `dossierPath` names the field its dossier
 * came from (the request's own `dossierId`, for an input that names none).
 */
export type CheckedInput =
  { dossierId: string; dossierPath: string } | { property: DossierProperty };

/**
 * Exactly one of `property` and `dossierId` (an input with neither values the request's own
 * `dossierId`, `requestDossierId`, where it has one). The schema leaves all of them optional so that a
 * wrong property is named alone, not beside every other alternative's complaints; this says the
 * rest in one message at the input (both given: refuseBoth, which the routes also run before the
 * schema). `buildingId` and `simulationId`, which the original service takes, are refused by
 * name.
 */
export function checkInput(
  input: ValuationInput,
  path: string,
  requestDossierId?: string,
): CheckedInput {
  for (const key of ['buildingId', 'simulationId'] as const) {
    if (input[key] !== undefined) {
      throw invalidField(
        `${path}/${key}`,
        `is not supported: this service values a property or a dossier (${key === 'buildingId' ? 'it holds no building register' : 'it holds no simulations'})`,
      );
    }
  }
  refuseBoth(input, path);
  if (input.property !== undefined) return { property: input.property };
  if (input.dossierId !== undefined) {
    return { dossierId: input.dossierId, dossierPath: `${path}/dossierId` };
  }
  // The .NET client names the dossier beside the inputs, which then hold only their dates.
  if (requestDossierId !== undefined) {
    return { dossierId: requestDossierId, dossierPath: '/dossierId' };
  }
  throw invalidField(`${path}/property`, PROPERTY_REQUIRED);
}

/** What a valuation names when it has neither a property nor a dossier, at its `property`. */
export const PROPERTY_REQUIRED = 'is required unless dossierId is given';

/**
 * An input with both `property` and `dossierId` is refused for that, before the schema would
 * list what the property lacks (which is beside the point when it should not be there at all).
 */
function refuseBoth(input: unknown, path: string): void {
  // A null is not "given": the schema names its type.
  if (isRecord(input) && input.property != null && input.dossierId != null) {
    throw invalidField(path, 'must have either property or dossierId, not both');
  }
}

/** The raw body of the full valuation: each of its `valuationInputs`. */
export function refuseBothInInputs(body: unknown): void {
  if (!isRecord(body) || !Array.isArray(body.valuationInputs)) return;
  body.valuationInputs.forEach((input, i) => {
    refuseBoth(input, `/valuationInputs/${String(i)}`);
  });
}

/** The raw body of the light valuation: the body itself is the input. */
export const refuseBothInBody = (body: unknown): void => {
  refuseBoth(body, '');
};
