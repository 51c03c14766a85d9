import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { answerClaim, registerAnswerDeadline } from './answer-deadline.js';
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
  // What a handler is told of the time it has left: the deadline, 200 ms after its arrival.
  app.get('/time-left', (request, reply) => {
    const claim = answerClaim(request);
    const now = Date.now();
    return reply.send({
      left: claim.deadlineAt - now,
      hasTimeForLess: claim.hasTimeFor(claim.deadlineAt - now - 1, now),
      hasTimeForAll: claim.hasTimeFor(claim.deadlineAt - now, now),
    });
  });
  let releaseClaimed: () => void = () => undefined;
  // A handler that claims its answer (as one does before storing), then takes its time.
  app.get('/claimed', async (request) => {
    answerClaim(request).claim();
    await new Promise<void>((resolve) => {
      releaseClaimed = resolve;
    });
    return { stored: true };
  });
  let storeLate: () => void = () => undefined;
  let claimOutcome: (outcome: string) => void = () => undefined;
  const lateClaim = new Promise<string>((resolve) => (claimOutcome = resolve));
  // A handler that would store after the deadline answered: its claim is refused.
  app.get('/late', async (request) => {
    await new Promise<void>((resolve) => {
      storeLate = resolve;
    });
    try {
      answerClaim(request).claim();
      claimOutcome('claimed');
    } catch (error) {
      claimOutcome(error instanceof Error ? error.message : String(error));
    }
    return { stored: true };
  });
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

  it('tells a handler whether work of a given length ends before the deadline', async () => {
    const body = (await app.inject({ method: 'GET', url: '/time-left' })).json<{
      left: number;
      hasTimeForLess: boolean;
      hasTimeForAll: boolean;
    }>();
    expect(body.left).toBeGreaterThan(0);
    expect(body.left).toBeLessThanOrEqual(200);
    expect(body.hasTimeForLess).toBe(true);
    expect(body.hasTimeForAll).toBe(false);
    // Without a deadline, all the time there is.
    const free = answerClaim({} as Parameters<typeof answerClaim>[0]);
    expect(free.hasTimeFor(Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it('leaves a request whose handler claimed its answer to the handler, past the deadline', async () => {
    const pending = app.inject({ method: 'GET', url: '/claimed' });
    // Well past the deadline, the handler still has the answer.
    await new Promise((resolve) => setTimeout(resolve, 600));
    releaseClaimed();
    const res = await pending;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ stored: true });
  });

  it('refuses the claim of a handler the deadline has answered', async () => {
    const res = await app.inject({ method: 'GET', url: '/late' });
    expect(res.statusCode).toBe(503);
    storeLate();
    expect(await lateClaim).toBe(
      'The request was answered already (not in time); nothing was stored',
    );
  });
});
