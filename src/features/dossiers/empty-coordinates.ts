import { isRecord } from '../../http/is-record.js';

/**
 * `location.coordinates: {}` is no coordinates: the Ruby client (3.x) sends a property's
 * `coordinates`, `address`, `condition` and `quality` as empty objects when the caller gave
 * none, and the location is then found from the postcode. Removed from the raw body before the
 * schema, which would otherwise ask for a latitude and longitude nobody meant to give. Any other
 * `coordinates` is left to the schema.
 */
export function dropEmptyCoordinates(property: unknown): void {
  if (!isRecord(property) || !isRecord(property.location)) return;
  const { coordinates } = property.location;
  // `[]` too: PHP's empty array, in a merge patch (whose schema names no members).
  const empty = isRecord(coordinates)
    ? Object.keys(coordinates).length === 0
    : Array.isArray(coordinates) && coordinates.length === 0;
  if (empty) {
    delete property.location.coordinates;
  }
}

/** The raw body of a dossier (create, replace) or of the light valuation: its `property`. */
export function dropEmptyCoordinatesOfBody(body: unknown): void {
  if (isRecord(body)) dropEmptyCoordinates(body.property);
}

/** The raw body of the full valuation: each input's `property`. */
export function dropEmptyCoordinatesOfInputs(body: unknown): void {
  if (!isRecord(body) || !Array.isArray(body.valuationInputs)) return;
  for (const input of body.valuationInputs) {
    if (isRecord(input)) dropEmptyCoordinates(input.property);
  }
}
