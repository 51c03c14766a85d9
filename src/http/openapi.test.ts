import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createWorld, type World } from '../../test/helpers/world.js';

interface Response {
  headers?: Record<string, unknown>;
  content?: Record<string, unknown>;
}
interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, Response>;
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

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ name: `${method} ${path}`, method, op })),
    );

  it('names every operation once', () => {
    const ids = operations().map(({ name, op }) => op.operationId ?? name);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares errors as problem details, with the headers they come with', () => {
    for (const { name, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        // The shared page answers people in HTML; readiness says which store failed.
        if (Number(status) < 400 || name.startsWith('get /shared/')) continue;
        if (name === 'get /ready' && status === '503') {
          // The stores as JSON, or problem details when the process sheds load.
          expect(Object.keys(response.content ?? {})).toEqual([
            'application/json',
            'application/problem+json',
          ]);
          continue;
        }
        expect(Object.keys(response.content ?? {}), `${name} ${status}`).toEqual([
          'application/problem+json',
        ]);
      }
      if (op.responses['401']) {
        expect(Object.keys(op.responses['401'].headers ?? {}), name).toEqual(['WWW-Authenticate']);
      }
      // Refusals to come back later say when, problem details and HTML pages alike.
      for (const status of ['429', '503']) {
        const response = op.responses[status];
        if (response) expect(Object.keys(response.headers ?? {}), name).toContain('Retry-After');
      }
      // A token sent twice is a 400 with the bearer challenge.
      if (op.responses['400']) {
        expect(Object.keys(op.responses['400'].headers ?? {}), name).toEqual(['WWW-Authenticate']);
      }
      // Every method whose body is read can be answered 413 (a JSON body over the limit).
      if (['post', 'put', 'patch', 'delete'].includes(method)) {
        expect(Object.keys(op.responses), name).toContain('413');
      }
    }
  });

  it('declares the headers of uploads and downloads', () => {
    const responses = (path: string, method: string) => doc.paths[path]?.[method]?.responses ?? {};
    const cover = responses('/api/v1/user-settings/covers/file/{uuid}', 'get');
    const attachment = responses('/api/v1/dossiers/{id}/attachments/{attachmentId}', 'get');
    for (const download of [cover, attachment]) {
      expect(Object.keys(download['200']?.headers ?? {})).toEqual(
        expect.arrayContaining(['Content-Disposition', 'Accept-Ranges', 'ETag']),
      );
      expect(Object.keys(download['206']?.headers ?? {})).toContain('Content-Range');
      expect(Object.keys(download['416']?.headers ?? {})).toEqual(['Content-Range']);
    }
    const report = responses('/api/v1/dossiers/{id}/report', 'post');
    expect(Object.keys(report['200']?.headers ?? {})).toEqual(['Content-Disposition']);
    for (const [path, status] of [
      ['/api/v1/user-settings/covers/{scope}/{side}', '201'],
      ['/api/v1/dossiers/{id}/attachments', '201'],
    ] as const) {
      expect(Object.keys(responses(path, 'post')[status]?.headers ?? {}), path).toEqual([
        'Location',
      ]);
    }
  });

  it('writes patterns that mean the same without the u flag, as other regex dialects read them', () => {
    const patterns = new Set<string>();
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key === 'pattern' && typeof inner === 'string') patterns.add(inner);
          else collect(inner);
        }
      }
    };
    collect(doc.paths);
    expect(patterns.size).toBeGreaterThan(0);
    const samples = [
      'Appraisal report',
      'Zürich pCc{}',
      '\tTab',
      'Line\nbreak',
      'a\u0001b',
      'a\u0085b',
      'a\u202Eb',
      'a\u2028b',
      'Haus 🏠',
      '   ',
      '',
      'DE',
      '2024-02-29',
      '12345',
    ];
    for (const pattern of patterns) {
      expect(pattern, pattern).not.toMatch(/\\p\{/);
      const unicode = new RegExp(pattern, 'u');
      const plain = new RegExp(pattern);
      for (const sample of samples) {
        expect(plain.test(sample), `${pattern} on ${JSON.stringify(sample)}`).toBe(
          unicode.test(sample),
        );
      }
    }
  });

  it('says in words what every pattern takes (x-pattern-message)', () => {
    const unworded: string[] = [];
    let patterns = 0;
    const walk = (value: unknown, at: string): void => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}/${String(i)}`));
      else if (value && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        if (typeof record.pattern === 'string') {
          patterns += 1;
          const words = record['x-pattern-message'];
          if (typeof words !== 'string' || words === '') unworded.push(at);
        }
        for (const [key, inner] of Object.entries(record)) walk(inner, `${at}/${key}`);
      }
    };
    walk(doc.paths, '');
    expect(patterns).toBeGreaterThan(50);
    expect(unworded).toEqual([]);
  });

  it('takes merge patches on PATCH only, as declared', async () => {
    for (const { name, op } of operations()) {
      const types = Object.keys(op.requestBody?.content ?? {});
      if (name === 'patch /api/v1/dossiers/{id}') {
        expect(types).toEqual(['application/merge-patch+json', 'application/json']);
      } else expect(types, name).not.toContain('application/merge-patch+json');
    }
    const res = await call(world.app, {
      method: 'POST',
      url: '/api/v1/dossiers',
      token: world.memberA.token,
      headers: { 'content-type': 'application/merge-patch+json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json<{ detail: string }>().detail).toMatch(/taken by PATCH only/);
  });

  it('leaves query parameters with defaults optional', () => {
    for (const { name, op } of operations()) {
      for (const parameter of op.parameters ?? []) {
        const schema = (parameter as { schema?: { default?: unknown } }).schema;
        if (schema?.default !== undefined) {
          expect(parameter.required ?? false, `${name} ${parameter.name}`).toBe(false);
        }
      }
    }
  });

  it('sends the same document at both addresses, serialized once', async () => {
    const page = await call(world.app, { method: 'GET', url: '/docs/json' });
    const again = await call(world.app, { method: 'GET', url: '/api/v1/openapi.json' });
    for (const res of [page, again]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json()).toEqual(doc);
    }
    expect(page.body).toBe(again.body);
    expect(again.body).toBe(JSON.stringify(world.app.swagger()));
  });

  it('serves the interactive docs page', async () => {
    const res = await call(world.app, { method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});
