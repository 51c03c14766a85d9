import type { FieldError } from '../../http/problem.js';

/**
 * What is wrong with a new order, `listed`, of the covers `existing`: every listed uuid must be
 * one of them, and none listed twice. A uuid of another owner, side or organization is answered
 * like an unknown one, so the answer never tells whether it exists elsewhere.
 */
export function orderErrors(
  listed: readonly string[],
  existing: ReadonlySet<string>,
): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  listed.forEach((uuid, i) => {
    const where = `/items/${i}/uuid`;
    if (seen.has(uuid)) errors.push({ path: where, message: 'is listed more than once' });
    else if (!existing.has(uuid)) {
      errors.push({ path: where, message: 'is not a cover of this owner and side' });
    }
    seen.add(uuid);
  });
  return errors;
}
