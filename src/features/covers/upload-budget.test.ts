import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectProblem } from '../../../test/helpers/problem.js';
import { coverForm } from '../../../test/helpers/multipart.js';
import { makePdf } from '../../../test/helpers/pdf.js';
import { RawConnection } from '../../../test/helpers/raw-http.js';
import { call, createWorld, type World } from '../../../test/helpers/world.js';
import { limits } from '../../limits.js';
import { PdfInspector } from '../../pdf/pdf-inspector.js';

const URL = '/api/v1/user-settings/covers/user/front';

describe('uploads under way per organization', () => {
  let world: World;
  const inspector = new PdfInspector();
  beforeAll(async () => {
    world = await createWorld('sqlite', { app: { pdfInspector: inspector } });
    await world.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => world.close());

  it('refuses the next upload with 429 before reading it while four of the largest are under way', async () => {
    const port = (world.app.server.address() as AddressInfo).port;
    const declared = limits.covers.requestBytes;
    // Four uploads of the largest size whose bodies have only begun to arrive.
    const slow = await Promise.all(
      [0, 1, 2, 3].map(async () => {
        const connection = await RawConnection.open(port);
        connection.write(
          `POST ${URL} HTTP/1.1\r\nHost: propdata\r\n` +
            `Authorization: Bearer ${world.memberA.token}\r\n` +
            'Content-Type: multipart/form-data; boundary=x\r\n' +
            `Content-Length: ${String(declared)}\r\n\r\n--x\r\n`,
        );
        return connection;
      }),
    );
    await vi.waitFor(() => expect(inspector.uploads.size).toBe(4 * declared), { timeout: 10_000 });
    const pdf = await makePdf();
    const post = (token: string) =>
      call(world.app, { method: 'POST', url: URL, token, ...coverForm(pdf) });
    const refused = await post(world.memberA.token);
    expect(expectProblem(refused, 429, 'rate_limited').detail).toMatch(/uploads under way/);
    expect(refused.headers['retry-after']).toBe(String(limits.work.retryAfterSeconds));
    // Another organization's upload is not held up.
    expect((await post(world.memberB.token)).statusCode).toBe(201);
    // The clients give up: their bytes are given back, and the next upload is taken.
    for (const connection of slow) connection.destroy();
    await vi.waitFor(() => expect(inspector.uploads.size).toBe(0), { timeout: 10_000 });
    const taken = await post(world.memberA.token);
    expect(taken.statusCode, taken.body).toBe(201);
  });
});
