import { describe, expect, it } from 'vitest';
import { orderErrors } from './validate.js';

describe('cover order rules', () => {
  const existing = new Set(['a', 'b', 'c']);

  it('accepts any order of existing covers, a subset, or none', () => {
    expect(orderErrors(['c', 'a', 'b'], existing)).toEqual([]);
    expect(orderErrors(['b'], existing)).toEqual([]);
    expect(orderErrors([], existing)).toEqual([]);
  });

  it('names every unknown or repeated uuid', () => {
    expect(orderErrors(['a', 'x', 'a', 'b', 'b'], existing)).toEqual([
      { path: '/items/1/uuid', message: 'is not a cover of this owner and side' },
      { path: '/items/2/uuid', message: 'is listed more than once' },
      { path: '/items/4/uuid', message: 'is listed more than once' },
    ]);
  });
});
