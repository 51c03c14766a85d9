import { describe, expect, it } from 'vitest';
import { expectProblem } from '../../test/helpers/problem.js';
import { call, worldForSuite } from '../../test/helpers/world.js';
import { createDossier } from '../../test/helpers/fixtures.js';

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
});
