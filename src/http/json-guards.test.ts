import { describe, expect, it } from 'vitest';
import { limits } from '../limits.js';
import { expectProblem } from '../../test/helpers/problem.js';
import { call, worldForSuite } from '../../test/helpers/world.js';
import { jsonGuardError, queryDecodes } from './json-guards.js';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { a: value } : [value];
  return value;
};

describe('jsonGuardError', () => {
  it('accepts values as deep as the limit and refuses one level more', () => {
    expect(jsonGuardError(nested(limits.jsonDepth))).toBeUndefined();
    const error = jsonGuardError(nested(limits.jsonDepth + 1));
    expect(error?.message).toBe(`is nested more than ${String(limits.jsonDepth)} levels deep`);
    // Found without recursion, however deep the value.
    expect(jsonGuardError(nested(1_000_000))?.message).toMatch(/nested/);
  });

  it('points at a string or a name with U+0000', () => {
    expect(jsonGuardError({ a: [{ 'b/c': 'x\u0000' }] })).toEqual({
      path: '/a/0/b~1c',
      message: 'must not contain the character U+0000',
    });
    expect(jsonGuardError({ a: { 'k\u0000': 1 } })?.path).toBe('/a');
    expect(jsonGuardError('\u0000')?.path).toBe('');
    expect(jsonGuardError({ a: 'fine', b: [1, null, true] })).toBeUndefined();
  });

  it('refuses half of a character (a lone surrogate) but keeps whole pairs', () => {
    expect(jsonGuardError({ title: 'Flat \ud83d' })).toEqual({
      path: '/title',
      message: 'must not contain a lone UTF-16 surrogate (half of a character)',
    });
    expect(jsonGuardError({ title: '\ude00 after' })?.path).toBe('/title');
    expect(jsonGuardError({ title: 'two halves \ude00\ud83d' })?.path).toBe('/title');
    expect(jsonGuardError({ ['k\ud83d']: 1 })?.message).toMatch(/name with a lone/);
    expect(jsonGuardError({ title: 'Flat \ud83d\ude00 – Gäste' })).toBeUndefined();
  });

  it('refuses more values than the limit before validation has to list them', () => {
    const keys = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${String(i)}`, i]));
    // The object itself counts as one value.
    expect(jsonGuardError(keys(limits.jsonValues - 1))).toBeUndefined();
    expect(jsonGuardError(keys(80_000))).toEqual({
      path: '',
      message: `has more than ${String(limits.jsonValues)} values`,
    });
    expect(
      jsonGuardError({ a: Array.from({ length: limits.jsonValues }, () => 1) })?.message,
    ).toMatch(/more than/);
  });
});

describe('queryDecodes', () => {
  it('accepts escapes that make UTF-8 and refuses broken ones', () => {
    for (const url of [
      '/a',
      '/a?',
      '/a?q=Wien',
      '/a?q=Z%C3%BCrich+Nord&x=%20',
      '/a?q=%F0%9F%8F%A0',
    ]) {
      expect(queryDecodes(url), url).toBe(true);
    }
    for (const url of ['/a?q=Wien%FF', '/a?q=%ZZ', '/a?q=100%', '/a?q=%ED%A0%80', '/a?q=%E0%A4']) {
      expect(queryDecodes(url), url).toBe(false);
    }
  });
});

describe('query strings that do not decode, through the app', () => {
  const world = worldForSuite('sqlite');

  it('are 400 bad_request on API routes, as in the path; a shared page still answers its page', async () => {
    const url = '/api/v1/administrative_divisions?countryCode=AT&q=';
    const ok = await call(world().app, {
      method: 'GET',
      url: `${url}Wien`,
      token: world().memberA.token,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    for (const bad of ['Wien%FF', '%ZZ', 'Wien%', '%ED%A0%80']) {
      const res = await call(world().app, {
        method: 'GET',
        url: url + bad,
        token: world().memberA.token,
      });
      expect(expectProblem(res, 400, 'bad_request').detail, bad).toMatch(
        /query string is not valid/,
      );
    }
    const page = await call(world().app, {
      method: 'GET',
      url: '/shared/dossier/not-a-secret?x=%FF',
    });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });
});
