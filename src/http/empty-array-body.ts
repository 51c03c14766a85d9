/**
 * An empty JSON array sent for the empty object taken as `{}`: PHP's `json_encode([])` writes
 * `[]` for an empty associative array, and the PHP SDK's generic request sends nothing else
 * where a body has no members. Any other array stays what it is (and its schema refuses it).
 */
export function emptyArrayAsObject(request: { body: unknown }): void {
  if (Array.isArray(request.body) && request.body.length === 0) request.body = {};
}
