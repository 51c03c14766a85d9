import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { RawConnection } from '../../test/helpers/raw-http.js';
import { call, PASSWORD, worldForSuite } from '../../test/helpers/world.js';

describe('security headers', () => {
  const world = worldForSuite('sqlite');

  it('nosniff on every answer, errors included', async () => {
    for (const url of ['/health', '/api/v1/me', '/no/such/route', '/api/v1/openapi.json']) {
      const res = await call(world().app, { method: 'GET', url });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('no-store on the login answer and on answers to authenticated requests', async () => {
    type Request = { method: 'GET' | 'POST'; url: string; token?: string; payload?: object };
    const answers: [Request, number][] = [
      [
        {
          method: 'POST',
          url: '/auth/login/credentials',
          payload: { username: 'member-a', password: PASSWORD },
        },
        200,
      ],
      [{ method: 'GET', url: '/api/v1/me', token: world().memberA.token }, 200],
      [
        {
          method: 'GET',
          url: '/api/v1/dossiers/5f0e7d8c-1b2a-4c3d-9e8f-0a1b2c3d4e5f',
          token: world().memberA.token,
        },
        404,
      ],
    ];
    for (const [request, status] of answers) {
      const res = await call(world().app, request);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers['cache-control'], request.url).toBe('no-store');
    }
  });

  it('no-store on the login answer however its path is spelled', async () => {
    const app = world().app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const body = JSON.stringify({ username: 'member-a', password: PASSWORD });
    for (const target of [
      '/auth/login/credentials',
      '/%61uth/login/credentials',
      `http://127.0.0.1:${String(port)}/auth/login/credentials`,
    ]) {
      const connection = await RawConnection.open(port);
      connection.write(
        `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${String(Buffer.byteLength(body))}\r\nConnection: close\r\n\r\n${body}`,
      );
      const { head } = await connection.response();
      expect(head, target).toMatch(/^HTTP\/1\.1 200 /);
      expect(head.toLowerCase(), target).toContain('cache-control: no-store');
    }
  });

  it('a content security policy on the documentation that no page may frame', async () => {
    const docs = await call(world().app, { method: 'GET', url: '/docs' });
    const page =
      docs.statusCode === 302
        ? await call(world().app, { method: 'GET', url: String(docs.headers.location) })
        : docs;
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    // Nothing from another host: no https: source, no named host.
    for (const directive of csp.split(';')) {
      const sources = directive.trim().split(/\s+/).slice(1);
      expect(
        sources.every((s) => s.startsWith("'") || s === 'data:'),
        directive,
      ).toBe(true);
    }
    // Every file of the page is served, under the same policy.
    const initializer = await call(world().app, {
      method: 'GET',
      url: '/docs/static/swagger-initializer.js',
    });
    expect(initializer.statusCode).toBe(200);
    expect(initializer.body).not.toContain('validator.swagger.io');
  });
});
