import type { ServiceDeps } from '../../app-context.js';
import type { Caller } from '../../http/caller.js';
import { checkCountry, invalidField } from '../../http/field-errors.js';
import { isSocioIndicator, SOCIO_INDICATORS } from '../../market/places/indicators.js';
import { indicatorsAround, type IndicatorValue } from '../../market/queries/indicators.js';
import { visibleDossier } from '../dossiers/dossiers.js';
import { checkInCountry } from '../dossiers/validate.js';
import type { IndicatorsRequest, IndicatorsResponse } from './schemas.js';

export type IndicatorsDeps = Pick<ServiceDeps, 'db' | 'market' | 'now' | 'costlyWork'>;

/** A value's fields without its indicator name (the item names it once). */
function fields(value: IndicatorValue): Omit<IndicatorValue, 'indicator'> {
  const { value: number, unit, year, level, divisionId, divisionName, source } = value;
  return { value: number, unit, year, level, divisionId, divisionName, source };
}

/** The point a request names: its coordinates, or a visible dossier's of the same country. */
async function pointOf(deps: IndicatorsDeps, caller: Caller, request: IndicatorsRequest) {
  const countryCode = checkCountry(request.countryCode);
  if ((request.coordinates === undefined) === (request.dossierId === undefined)) {
    throw invalidField('', 'must have exactly one of coordinates or dossierId');
  }
  if (request.coordinates) return { countryCode, point: request.coordinates, postcode: undefined };
  const dossier = await visibleDossier(deps.db, caller, request.dossierId ?? '');
  if (dossier.countryCode !== countryCode) {
    throw invalidField('/dossierId', `is a dossier in ${dossier.countryCode}, not ${countryCode}`);
  }
  const { coordinates, address } = dossier.content.property.location;
  // A dossier's stated postcode is its postcode, as for its valuation and its report.
  const postcode = address?.postCode === undefined ? undefined : String(address.postCode);
  return { countryCode, point: coordinates, postcode };
}

/**
 * The imported indicators of the divisions containing a point or a dossier: each from the
 * finest division that has it, its latest year up to `year`, beside the next coarser one.
 */
export async function findIndicators(
  deps: IndicatorsDeps,
  caller: Caller,
  request: IndicatorsRequest,
): Promise<IndicatorsResponse> {
  const { countryCode, point, postcode } = await pointOf(deps, caller, request);
  const year = request.year ?? deps.now().getUTCFullYear();
  const found = await deps.market.read((db, view) =>
    deps.costlyWork.queries('places', db, view, async (db) => {
      // A dossier's point was checked when it was stored.
      if (request.coordinates) await checkInCountry(db, countryCode, point, '/coordinates');
      return indicatorsAround(db, { countryCode, point, postcode, year });
    }),
  );
  return {
    area: found.area,
    items: found.indicators.map(({ value, wider }) => ({
      indicator: value.indicator,
      group: isSocioIndicator(value.indicator) ? SOCIO_INDICATORS[value.indicator] : null,
      ...fields(value),
      wider: wider ? fields(wider) : null,
    })),
  };
}
