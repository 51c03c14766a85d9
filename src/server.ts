import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { limits } from './limits.js';
import type { Stores } from './stores.js';

/**
 * Listens, and on SIGTERM/SIGINT stops accepting connections, lets in-flight requests finish
 * (at most `limits.shutdownGraceMs`), then closes the stores.
 */
export async function startServer(config: Config, stores: Stores): Promise<FastifyInstance> {
  const app = await buildApp({ config, stores });
  app.addHook('onClose', () => stores.close());
  closeWithGrace({ delay: limits.shutdownGraceMs }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'fatal error, shutting down');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
  return app;
}
