import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/**
 * A `HEAD` of a route that answers a stream (a stored file, the dossier list) gets the `GET`'s
 * status and headers and none of the stream read. Fastify's own `HEAD` drains the stream to
 * throw it away: a whole file's rows, or every page of a hundred dossiers, read for a request
 * that receives none of it, and an error of the stream (a file deleted meanwhile) logged as a
 * fault. The stream is destroyed unread and an empty one answered in its place (an empty body
 * would be announced as `Content-Length: 0`, not the `GET`'s length).
 */
export function registerHeadAnswers(app: FastifyInstance): void {
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'HEAD' || !(payload instanceof Readable)) return payload;
    payload.destroy();
    return Readable.from([]);
  });
}
