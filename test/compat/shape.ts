import { expect } from 'vitest';

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * Asserts that `actual` has the shape of a recorded answer: every member the recording has, of
 * the same JSON type, recursively (an array's items against the recording's first item). Values
 * are not compared (the recordings are of another market and model); extra members are allowed.
 */
export function expectShape(actual: unknown, recorded: unknown, path = ''): void {
  expect(kind(actual), `${path || '(root)'} in ${JSON.stringify(actual)}`).toBe(kind(recorded));
  if (Array.isArray(recorded) && Array.isArray(actual)) {
    const [first] = recorded as unknown[];
    if (first === undefined) return;
    expect(actual.length, `${path} is empty`).toBeGreaterThan(0);
    for (const [i, item] of actual.entries()) expectShape(item, first, `${path}[${String(i)}]`);
    return;
  }
  if (kind(recorded) === 'object') {
    for (const [key, value] of Object.entries(recorded as Record<string, unknown>)) {
      expectShape((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
    }
  }
}
