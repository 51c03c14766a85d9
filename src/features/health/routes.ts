import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../app-context.js';
import { PROBLEM_MEDIA_TYPE } from '../../http/problem.js';
import { featureRoutes } from '../../http/routes.js';
import { ProblemSchema } from '../../http/schemas.js';

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
      response: {
        200: Ready,
        503: {
          description:
            'A store does not answer (the stores, as JSON), or the process sheds load (problem ' +
            'details, with `Retry-After`).',
          headers: {
            'Retry-After': {
              type: 'integer',
              description:
                'With problem details only (load shed): seconds to wait before retrying.',
            },
          },
          content: {
            'application/json': { schema: Ready },
            [PROBLEM_MEDIA_TYPE]: { schema: ProblemSchema },
          },
        },
      },
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
