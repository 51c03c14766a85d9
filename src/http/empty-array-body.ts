import { isRecord } from './is-record.js';

/**
 * Empty JSON arrays where the body's schema has an object, taken as `{}`: PHP's `json_encode`
 * writes an empty associative array as `[]`, so a PHP client sends `[]` for every empty object
 * it was given or read: an empty body (the PHP SDK's generic request sends nothing else), a
 * template section's `configuration`, a property's `coordinates`. Any other array stays what it
 * is, and the schema refuses it where it wants an object. Walks `properties` and `items`, and
 * takes a union as wanting an object where it allows one and no array.
 */
export function emptyArraysAsObjects(schema: unknown, value: unknown): unknown {
  if (!isRecord(schema)) return value;
  if (Array.isArray(value)) {
    if (value.length === 0) return wantsObject(schema) ? {} : value;
    const items = schema.items;
    if (schema.type === 'array' && isRecord(items))
      value.forEach((item, i) => (value[i] = emptyArraysAsObjects(items, item)));
    return value;
  }
  const properties = schema.properties;
  if (isRecord(value) && isRecord(properties)) {
    for (const [key, child] of Object.entries(properties))
      if (Object.hasOwn(value, key)) value[key] = emptyArraysAsObjects(child, value[key]);
  }
  return value;
}

function wantsObject(schema: Record<string, unknown>): boolean {
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray);
  if (!branches) return schema.type === 'object';
  const types = branches.map((b) => (isRecord(b) ? b.type : undefined));
  return types.includes('object') && !types.includes('array');
}

/** The request's body with `emptyArraysAsObjects` applied, before its schema is. */
export function emptyArraysOfBody(schema: unknown) {
  return (request: { body: unknown }): void => {
    request.body = emptyArraysAsObjects(schema, request.body);
  };
}
