import type { FastifyInstance } from 'fastify';

/**
 * Every response must be handed to the network within `sendMs` of its start. A client that
 * stops reading would otherwise keep its connection, and the unsent rest of the response in
 * memory, for as long as it likes; past the deadline the connection is closed instead. Small
 * answers fit the operating system's buffers at once, so only large ones to a slow or stalled
 * reader are ever cut.
 */
export function registerSendDeadline(app: FastifyInstance, sendMs: number): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const response = reply.raw;
    const timer = setTimeout(() => {
      if (response.writableFinished) return;
      request.log.info({ sendMs }, 'response not taken by the client in time; connection closed');
      request.raw.socket.destroy();
    }, sendMs);
    timer.unref();
    response.once('close', () => clearTimeout(timer));
    done(null, payload);
  });
}
