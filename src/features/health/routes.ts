import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../app-context.js';
import { featureRoutes } from '../../http/routes.js';

const Health = Type.Object({ status: Type.String() });
const Ready = Type.Object({
  status: Type.String(),
  stores: Type.Record(Type.String(), Type.Boolean()),
});

export function healthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const routes = featureRoutes(app, { auth: 'none', tags: ['health'] });
  routes.get(
    '/health',
    {
      operationId: 'getHealth',
      summary: 'Liveness: the process answers',
      response: { 200: Health },
    },
    () => ({ status: 'ok' }),
  );
  routes.get(
    '/ready',
    {
      operationId: 'getReadiness',
      summary: 'Readiness: every store answers',
      response: { 200: Ready, 503: Ready },
    },
    async (_request, reply) => {
      const stores = await ctx.stores.check();
      const ready = Object.values(stores).every(Boolean);
      return reply
        .code(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'unavailable', stores });
    },
  );
}
