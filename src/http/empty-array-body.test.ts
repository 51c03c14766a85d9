import { Type } from 'typebox';
import { expect, it } from 'vitest';
import { emptyArraysAsObjects } from './empty-array-body.js';

const Body = Type.Object({
  name: Type.String(),
  options: Type.Object({}),
  tags: Type.Array(Type.String()),
  items: Type.Array(Type.Object({ configuration: Type.Record(Type.String(), Type.Boolean()) })),
  either: Type.Union([Type.Object({ a: Type.Number() }), Type.Null()]),
  list: Type.Union([Type.Array(Type.Number()), Type.Object({})]),
});

it('takes [] as {} wherever the schema has an object, and nothing else', () => {
  const sent = {
    name: 'x',
    options: [],
    tags: [],
    items: [{ configuration: [] }, { configuration: { a: true } }, { configuration: [1] }],
    either: [],
    list: [],
    extra: [],
  };
  expect(emptyArraysAsObjects(Body, sent)).toEqual({
    name: 'x',
    options: {},
    // An empty array where the schema has one stays one, as does one the schema might take.
    tags: [],
    items: [{ configuration: {} }, { configuration: { a: true } }, { configuration: [1] }],
    either: {},
    list: [],
    // A member the schema does not name is left to it.
    extra: [],
  });
  expect(emptyArraysAsObjects(Body, [])).toEqual({});
  expect(emptyArraysAsObjects(Type.Array(Type.String()), [])).toEqual([]);
  expect(emptyArraysAsObjects(Body, [[]])).toEqual([[]]);
});
