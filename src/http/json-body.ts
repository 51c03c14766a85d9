import type { FastifyInstance } from 'fastify';

/** Methods whose requests carry no meaningful body (RFC 9110 gives them no body semantics). */
const BODYLESS_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS']);

/**
 * The JSON body parser: Fastify's own (prototype poisoning refused), except that an empty body
 * on a method without body semantics is no body at all. Client libraries of the original
 * service send `Content-Type: application/json` with an empty body on every DELETE; that is not
 * malformed JSON. On POST, PUT and PATCH an empty body stays `400 invalid_json`.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '' && BODYLESS_METHODS.has(request.method)) {
      done(null, undefined);
      return;
    }
    void parseJson(request, text, done);
  });
}
