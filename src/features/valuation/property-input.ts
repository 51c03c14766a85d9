import type { CountryCode } from '../../market/countries.js';
import type { PropertyToValue } from '../../valuation/types.js';
import type { ResolvedProperty } from '../dossiers/validate.js';

/** A property with its point resolved, as the valuation model takes it. */
export function toPropertyToValue(
  countryCode: CountryCode,
  property: ResolvedProperty,
): PropertyToValue {
  const { location } = property;
  const out: PropertyToValue = {
    countryCode,
    propertyType: property.propertyType.code,
    latitude: location.coordinates.latitude,
    longitude: location.coordinates.longitude,
    locationPrecision: location.precision === 'postcode' ? 'postcode' : 'exact',
    livingArea: property.livingArea,
  };
  const optional = {
    postalCode: location.address?.postCode,
    numberOfRooms: property.numberOfRooms,
    numberOfBedrooms: property.numberOfBedrooms,
    buildingYear: property.buildingYear,
    isNew: property.isNew,
    floorNumber: property.floorNumber,
    hasLift: property.hasLift,
    landArea: property.landArea,
    renovationYear: property.renovationYear,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) Object.assign(out, { [key]: value });
  }
  return out;
}
