/** JSON values as a parsed JSON body holds them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * RFC 7396 JSON merge patch: a patch that is an object merges member by member (`null`
 * removes the member, objects merge recursively); any other patch replaces the target whole.
 * Neither argument is changed.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) Reflect.deleteProperty(result, key);
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
