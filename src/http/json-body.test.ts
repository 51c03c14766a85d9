import { describe, expect, it } from 'vitest';
import { expectProblem } from '../../test/helpers/problem.js';
import { call, worldForSuite } from '../../test/helpers/world.js';
import { createDossier } from '../../test/helpers/fixtures.js';
import { declaredCharset } from './json-body.js';

const json = { 'content-type': 'application/json' };

describe('JSON bodies', () => {
  const world = worldForSuite('sqlite');

  it('an empty body with a JSON content type is no body on DELETE and GET', async () => {
    const token = world().memberA.token;
    const url = `/api/v1/dossiers/${await createDossier(world())}`;
    const read = await call(world().app, { method: 'GET', url, token, headers: json, payload: '' });
    expect(read.statusCode, read.body).toBe(200);
    const del = await call(world().app, {
      method: 'DELETE',
      url,
      token,
      headers: json,
      payload: '',
    });
    expect(del.statusCode, del.body).toBe(204);
    const template = await call(world().app, {
      method: 'DELETE',
      url: '/api/v1/user-settings/templates/00000000-0000-4000-8000-000000000000',
      token,
      headers: json,
      payload: '',
    });
    expectProblem(template, 404, 'not_found');
    // A JSON body on DELETE (`{}`, as some HTTP libraries send) is read and ignored.
    const other = `/api/v1/dossiers/${await createDossier(world())}`;
    const withBody = await call(world().app, {
      method: 'DELETE',
      url: other,
      token,
      headers: json,
      payload: '{}',
    });
    expect(withBody.statusCode, withBody.body).toBe(204);
    const gone = await call(world().app, { method: 'GET', url: other, token });
    expectProblem(gone, 404, 'not_found');
  });

  it('stays malformed JSON on POST, PUT and PATCH, and broken JSON on DELETE', async () => {
    const token = world().memberA.token;
    const url = '/api/v1/dossiers/00000000-0000-4000-8000-000000000000';
    for (const [method, path, type] of [
      ['POST', '/api/v1/dossiers', 'application/json'],
      ['PUT', url, 'application/json'],
      ['PATCH', url, 'application/json'],
      ['PATCH', url, 'application/merge-patch+json'],
    ] as const) {
      const headers = { 'content-type': type };
      const empty = expectProblem(
        await call(world().app, { method, url: path, token, headers, payload: '' }),
        400,
        'invalid_json',
      );
      // Said without naming another media type than the one sent.
      expect(empty.detail).toBe(
        'The body is empty: a JSON body is required with this Content-Type',
      );
    }
    expectProblem(
      await call(world().app, { method: 'DELETE', url, token, headers: json, payload: '{' }),
      400,
      'invalid_json',
    );
  });

  it('refuses bytes that are not UTF-8 and changes nothing', async () => {
    const token = world().memberA.token;
    const id = await createDossier(world());
    const url = `/api/v1/dossiers/${id}`;
    const broken = Buffer.concat([
      Buffer.from('{"title":"P'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('"}'),
    ]);
    const res = await call(world().app, {
      method: 'PATCH',
      url,
      token,
      headers: { 'content-type': 'application/merge-patch+json' },
      payload: broken,
    });
    expectProblem(res, 400, 'invalid_json');
    expect(res.json<{ detail: string }>().detail).toContain('UTF-8');
    const read = await call(world().app, { method: 'GET', url, token });
    expect(read.json<{ title: string }>().title).not.toContain('\ufffd');
    // Valid UTF-8 beyond ASCII, and a leading byte order mark, are read as they are.
    const ok = await call(world().app, {
      method: 'PATCH',
      url,
      token,
      headers: { 'content-type': 'application/merge-patch+json' },
      payload: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"title":"Café 🏠"}')]),
    });
    expect(ok.statusCode, ok.body).toBe(204);
    const after = await call(world().app, { method: 'GET', url, token });
    expect(after.json<{ title: string }>().title).toBe('Café 🏠');
  });

  it('names the media types of the request’s own method when it refuses one', async () => {
    const token = world().memberA.token;
    const id = await createDossier(world());
    const url = `/api/v1/dossiers/${id}`;
    const refusal = async (method: 'PATCH' | 'PUT') =>
      expectProblem(
        await call(world().app, {
          method,
          url,
          token,
          headers: { 'content-type': 'text/plain' },
          payload: '{"title":"x"}',
        }),
        415,
        'unsupported_media_type',
      ).detail;
    expect(await refusal('PATCH')).toBe(
      'Content-Type must be application/merge-patch+json or application/json',
    );
    expect(await refusal('PUT')).toBe('Content-Type must be application/json');
  });

  it('refuses a body declared in another charset than UTF-8, and changes nothing', async () => {
    const token = world().memberA.token;
    const id = await createDossier(world());
    const url = `/api/v1/dossiers/${id}`;
    const before = (await call(world().app, { method: 'GET', url, token })).json<{
      title: string;
    }>().title;
    for (const type of [
      'application/merge-patch+json; charset=iso-8859-1',
      'application/merge-patch+json;charset="UTF-16"',
      'application/merge-patch+json; CHARSET=windows-1252; foo=bar',
    ]) {
      const res = await call(world().app, {
        method: 'PATCH',
        url,
        token,
        headers: { 'content-type': type },
        payload: '{"title":"Renamed"}',
      });
      const problem = expectProblem(res, 415, 'unsupported_media_type');
      expect(problem.detail).toContain('UTF-8');
    }
    const read = await call(world().app, { method: 'GET', url, token });
    expect(read.json<{ title: string }>().title).toBe(before);
    // UTF-8 under its names in use, and ASCII, are read.
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"', 'utf8', 'us-ascii']) {
      const ok = await call(world().app, {
        method: 'PATCH',
        url,
        token,
        headers: { 'content-type': `application/merge-patch+json; charset=${charset}` },
        payload: JSON.stringify({ title: `Title ${charset}` }),
      });
      expect(ok.statusCode, ok.body).toBe(204);
    }
    const post = await call(world().app, {
      method: 'POST',
      url: '/api/v1/user-settings/templates/list',
      token,
      headers: { 'content-type': 'application/json; charset=latin1' },
      payload: '{"countryCode":"DE"}',
    });
    expectProblem(post, 415, 'unsupported_media_type');
  });
});

describe('declaredCharset', () => {
  it('reads the charset parameter, quoted or not, in any case', () => {
    expect(declaredCharset('application/json')).toBeUndefined();
    expect(declaredCharset(undefined)).toBeUndefined();
    expect(declaredCharset('application/json; charset=UTF-8')).toBe('utf-8');
    expect(declaredCharset('application/json;charset="ISO-8859-1"; x=y')).toBe('iso-8859-1');
    expect(declaredCharset('application/json; version=1; Charset = utf8')).toBe('utf8');
    expect(declaredCharset('application/json; charset=')).toBe('');
  });
});
