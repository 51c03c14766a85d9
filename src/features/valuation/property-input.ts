import { normalizePostcode, type CountryCode } from '../../market/countries.js';
import { InsufficientDataError } from '../../valuation/errors.js';
import type { PropertyToValue } from '../../valuation/types.js';
import type { ResolvedProperty } from '../dossiers/validate.js';

/** A property with its point resolved, as the valuation model takes it. */
export function toPropertyToValue(
  countryCode: CountryCode,
  property: ResolvedProperty,
): PropertyToValue {
  const { location } = property;
  const code = property.propertyType.code;
  if (code === 'multi_family_house') {
    throw new InsufficientDataError(
      'no multi_family_house offers in the market data (only apartments and houses) to value it',
    );
  }
  const out: PropertyToValue = {
    countryCode,
    propertyType: code,
    latitude: location.coordinates.latitude,
    longitude: location.coordinates.longitude,
    locationPrecision: location.precision === 'postcode' ? 'postcode' : 'exact',
    livingArea: property.livingArea,
  };
  const optional = {
    // As postcodes are compared (`1010` and ` 1010 ` are one code), so that a change of how it
    // is written alone does not make a dossier's valuation stale.
    postalCode:
      location.address?.postCode === undefined
        ? undefined
        : normalizePostcode(String(location.address.postCode)),
    street: location.address?.street,
    houseNumber: location.address?.houseNumber,
    numberOfRooms: property.numberOfRooms,
    numberOfBedrooms: property.numberOfBedrooms,
    buildingYear: property.buildingYear,
    isNew: property.isNew,
    floorNumber: property.floorNumber,
    hasLift: property.hasLift,
    landArea: property.landArea,
    renovationYear: property.renovationYear,
    isFurnished: property.isFurnished,
    // A balcony's area says whether there is one; the market data knows only that.
    hasBalcony: property.balconyArea === undefined ? undefined : property.balconyArea > 0,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) Object.assign(out, { [key]: value });
  }
  return out;
}
