/** A JSON object (not null, not an array): what a raw request body's members are read from. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
