import type { FastifyInstance } from 'fastify';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * UUIDs in paths are case-insensitive (RFC 9562 §4): an id in capitals names the same dossier,
 * template or cover as in small letters. Ids are stored and compared in small letters, so path
 * parameters that are UUIDs are turned to small letters before anything reads them; otherwise an
 * id in capitals passes validation and then finds nothing.
 */
export function registerUuidParams(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const params = request.params as Record<string, unknown> | undefined;
    if (params && typeof params === 'object') {
      for (const [key, value] of Object.entries(params)) {
        if (typeof value === 'string' && UUID.test(value)) params[key] = value.toLowerCase();
      }
    }
    done();
  });
}
