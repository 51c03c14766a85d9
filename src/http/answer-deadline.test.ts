import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerAnswerDeadline } from './answer-deadline.js';
import { registerErrorHandling } from './errors.js';

describe('answer deadline', () => {
  const app = Fastify({ logger: false });
  registerErrorHandling(app);
  registerAnswerDeadline(app, 200);
  let release: () => void = () => undefined;
  // A handler that waits for something that does not come until the test lets it go.
  app.get('/stuck', async () => {
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    return { late: true };
  });
  app.get('/quick', (_request, reply) => reply.send({ ok: true }));
  afterAll(() => app.close());

  it('answers a request its handler does not answer in time with 503, and closes it', async () => {
    const res = await app.inject({ method: 'GET', url: '/stuck' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers.connection).toBe('close');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.json<{ code: string; detail: string }>()).toMatchObject({
      code: 'overloaded',
      detail: 'The request was not answered within 0.2 s; try again later',
    });
    // The handler's late answer changes nothing.
    release();
    expect((await app.inject({ method: 'GET', url: '/quick' })).json()).toEqual({ ok: true });
  });
});
