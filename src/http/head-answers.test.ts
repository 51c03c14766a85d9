import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerHeadAnswers } from './head-answers.js';

describe('HEAD of a streamed answer', () => {
  it('gets the GET’s status and headers, and nothing of the stream is read', async () => {
    const app = Fastify();
    registerHeadAnswers(app);
    let reads = 0;
    let destroyed = 0;
    app.get('/file', (_request, reply) => {
      const stream = new Readable({
        read() {
          reads += 1;
          this.push(reads <= 3 ? Buffer.alloc(10, reads) : null);
        },
        destroy(error, callback) {
          destroyed += 1;
          callback(error);
        },
      });
      return reply.header('content-length', 30).type('application/pdf').send(stream);
    });
    try {
      const get = await app.inject({ method: 'GET', url: '/file' });
      expect(get.rawPayload.length).toBe(30);
      const readsByGet = reads;
      expect(readsByGet).toBeGreaterThanOrEqual(3);
      const head = await app.inject({ method: 'HEAD', url: '/file' });
      expect(head.statusCode).toBe(200);
      expect(head.rawPayload.length).toBe(0);
      expect(head.headers['content-length']).toBe('30');
      expect(head.headers['content-type']).toBe('application/pdf');
      // Fastify's own HEAD drained the stream: as many reads as the GET's.
      expect(reads).toBe(readsByGet);
      expect(destroyed).toBeGreaterThanOrEqual(1);
    } finally {
      await app.close();
    }
  });
});
