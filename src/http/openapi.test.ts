import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createWorld, type World } from '../../test/helpers/world.js';

interface Operation {
  security?: unknown[];
  responses: Record<string, unknown>;
}
type OpenApiDoc = { openapi: string; paths: Record<string, Record<string, Operation>> };

describe('OpenAPI document and docs page', () => {
  let world: World;
  let doc: OpenApiDoc;
  beforeAll(async () => {
    world = await createWorld('sqlite');
    const res = await call(world.app, { method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json<OpenApiDoc>();
  });
  afterAll(() => world.close());

  it('is valid OpenAPI 3', async () => {
    expect(doc.openapi).toBe('3.0.3');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('documents error responses on every operation, and 401 wherever a token is needed', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ name: `${method} ${path}`, op })),
    );
    expect(operations.map((o) => o.name)).toEqual(
      expect.arrayContaining([
        'post /auth/login/credentials',
        'get /api/v1/me',
        'get /health',
        'get /ready',
      ]),
    );
    for (const { name, op } of operations) {
      expect(Object.keys(op.responses), name).toContain('500');
      if (op.security) expect(Object.keys(op.responses), name).toContain('401');
    }
    expect(doc.paths['/api/v1/me']?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/auth/login/credentials']?.post?.security).toBeUndefined();
  });

  it('lists the statuses every route can answer: 429 and 503 on every API route, 422 where the data can fall short', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const statuses = Object.keys(op.responses);
        const name = `${method} ${path}`;
        expect(statuses, name).toContain('400');
        if (path.startsWith('/api/') || path.startsWith('/auth/')) {
          expect(statuses, name).toEqual(expect.arrayContaining(['429', '503']));
        }
        if (path !== '/health') expect(statuses, name).toContain('503');
      }
    }
    expect(Object.keys(doc.paths['/health']?.get?.responses ?? {})).not.toContain('503');
    for (const path of ['/api/v1/property_tracker', '/api/v1/valuation/property_value']) {
      expect(Object.keys(doc.paths[path]?.post?.responses ?? {}), path).toContain('422');
    }
    // A report of a dossier whose stored file cannot be put in (unusable-files.test.ts).
    const report = doc.paths['/api/v1/dossiers/{id}/report']?.post?.responses ?? {};
    expect(Object.keys(report)).toContain('409');
  });

  it('serves the interactive docs page', async () => {
    const res = await call(world.app, { method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});
